import CheckInCore
import Foundation
import HubAPI
@testable import HubDashboard
@testable import HubServer
import Testing

/// The organizer's forms as pure decisions: what an event, an access type, a new account and an
/// upload must be, and the words for what is wrong. No I/O.
@Suite struct AdminFormTests {
    static func eventForm(_ fields: [String: String]) -> EventForm {
        var form = EventForm()
        form.name = fields["name"] ?? "Autumn Gala"
        form.timeZone = fields["time_zone"] ?? "Europe/Berlin"
        form.starts = fields["starts"] ?? "2026-11-24T18:00"
        form.ends = fields["ends"] ?? "2026-11-24T23:30"
        form.windowSeconds = fields["window_seconds"] ?? "30"
        form.undoSeconds = fields["undo_seconds"] ?? "300"
        return form
    }

    @Test func anEventsDatesAreTheVenuesLocalTimes() throws {
        let event = try Self.eventForm([:]).decide(id: "ev1").get()
        // 18:00 in Berlin in November (UTC+1) is 17:00 UTC.
        #expect(event.startsAt == Timestamp(iso8601: "2026-11-24T17:00:00Z"))
        #expect(event.endsAt == Timestamp(iso8601: "2026-11-24T22:30:00Z"))
        #expect(event.timeZone == "Europe/Berlin")
        #expect(event.toleranceWindowMilliseconds == 30_000)
        #expect(event.stationUndoMilliseconds == 300_000)
        // And back into the form as the venue's clock.
        #expect(EventForm(event).starts == "2026-11-24T18:00")
    }

    @Test func anUnknownTimeZoneIsAnsweredInWords() {
        for zone in ["Mars/Olympus", "", "GMT+2", String(repeating: "A", count: 500)] {
            guard case .failure(let problems) = Self.eventForm(["time_zone": zone]).decide(id: "ev1") else {
                Issue.record("\(zone) was taken")
                continue
            }
            #expect(problems.messages.contains { $0.contains("is no time zone") })
            #expect(problems.messages.allSatisfy { $0.count < 300 }, "a huge entry is not echoed whole")
        }
    }

    @Test func anEndBeforeTheStartIsRefused() {
        guard case .failure(let problems) = Self.eventForm(["ends": "2026-11-24T17:00"]).decide(id: "ev1") else {
            Issue.record("taken")
            return
        }
        #expect(problems.messages == ["The end is before the start: check both dates."])
    }

    @Test func everyWrongFieldIsNamedAtOnce() {
        let form = Self.eventForm(["name": "  ", "starts": "tomorrow", "window_seconds": "-1", "undo_seconds": "9999999"])
        guard case .failure(let problems) = form.decide(id: "ev1") else {
            Issue.record("taken")
            return
        }
        #expect(problems.messages.count == 4)
        #expect(problems.messages[0] == "Give the event a name.")
        #expect(problems.messages[1].contains("“tomorrow” is no date and time"))
    }

    @Test func datesAreOptionalAndControlCharactersLeaveTheName() throws {
        let event = try Self.eventForm(["starts": "", "ends": "", "name": "Gala\u{1B}[31m <b>"]).decide(id: "ev1").get()
        #expect(event.startsAt == nil && event.endsAt == nil)
        #expect(event.name == "Gala[31m <b>")
    }

    @Test func anAccessTypeWindowIsInTheEventsZoneAndInOrder() throws {
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        var form = AccessTypeForm()
        form.name = "Day pass"
        form.reentry = true
        form.validFrom = "2026-11-24T10:00"
        form.validUntil = "2026-11-24T20:00"
        let type = try form.decide(zone: berlin).get()
        #expect(type == AccessType(id: "day-pass", name: "Day pass", reentry: true, validFrom: Timestamp(iso8601: "2026-11-24T09:00:00Z"),
                                   validUntil: Timestamp(iso8601: "2026-11-24T19:00:00Z")))
        form.validUntil = "2026-11-24T09:00"
        guard case .failure(let problems) = form.decide(zone: berlin) else {
            Issue.record("taken")
            return
        }
        #expect(problems.messages == ["“Valid until” is before “valid from”: check both."])
    }

    @Test func aNewAccountNeedsAnEmailANameARoleAndAPasswordOfEightCharacters() throws {
        var form = StaffForm()
        form.email = "Sam@Example.org"
        form.name = "Sam"
        form.role = "support"
        form.password = "long enough"
        let (info, password) = try form.decide(id: "st1").get()
        #expect(info == StaffInfo(id: "st1", email: "sam@example.org", name: "Sam", role: .support))
        #expect(password == "long enough")
        form.email = "Sam"
        form.role = "admin"
        form.password = "short"
        guard case .failure(let problems) = form.decide(id: "st1") else {
            Issue.record("taken")
            return
        }
        #expect(problems.messages == [
            "Give an e-mail address such as sam@example.org.", "Choose a role: organizer, support or staff.",
            "The password needs at least 8 characters.",
        ])
    }

    static func multipart(_ parts: [(name: String, filename: String?, body: String)], boundary: String = "----WebKitFormBoundaryX1y2") -> [UInt8] {
        var text = ""
        for part in parts {
            text += "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(part.name)\""
            if let filename = part.filename { text += "; filename=\"\(filename)\"\r\nContent-Type: text/csv" }
            text += "\r\n\r\n\(part.body)\r\n"
        }
        return Array((text + "--\(boundary)--\r\n").utf8)
    }

    @Test func aBrowsersUploadIsReadPartByPart() throws {
        let body = Self.multipart([("csrf", nil, "token-1"), ("file", "guests.csv", "code,name\r\nA1,Ana\r\n"), ("replace", nil, "on")])
        let boundary = try #require(MultipartForm.boundary(contentType: "multipart/form-data; boundary=----WebKitFormBoundaryX1y2"))
        let form = try MultipartForm(body, boundary: boundary)
        #expect(form["csrf"]?.text == "token-1")
        #expect(form["file"]?.filename == "guests.csv")
        #expect(form["file"]?.text == "code,name\r\nA1,Ana\r\n", "line ends inside the file are the file's")
        let upload = try RosterUpload.decide(contentType: "multipart/form-data; boundary=\"----WebKitFormBoundaryX1y2\"", body: body).get()
        #expect(upload.fileName == "guests.csv")
        #expect(upload.replace)
    }

    @Test func aBrokenOrFilelessUploadIsAProblemInWords() {
        let noFile = Self.multipart([("csrf", nil, "t"), ("file", "", "")])
        #expect(throws: Never.self) { try MultipartForm(noFile, boundary: "----WebKitFormBoundaryX1y2") }
        guard case .failure(.noFile) = RosterUpload.decide(contentType: "multipart/form-data; boundary=----WebKitFormBoundaryX1y2", body: noFile) else {
            Issue.record("a form without a file was taken")
            return
        }
        let truncated = Array(Self.multipart([("file", "a.csv", "code,name")]).dropLast(30))
        #expect(throws: MultipartForm.Failure.malformed) { try MultipartForm(truncated, boundary: "----WebKitFormBoundaryX1y2") }
        #expect(MultipartForm.boundary(contentType: "application/x-www-form-urlencoded") == nil)
        #expect(MultipartForm.boundary(contentType: "multipart/form-data") == nil)
        guard case .failure(.notAnUpload) = RosterUpload.decide(contentType: "text/plain", body: []) else {
            Issue.record("a text body was taken")
            return
        }
    }

    @Test func aNewPasswordIsBoundedAsSignInBoundsIt() {
        #expect(NewPassword.problem("1234567") != nil)
        #expect(NewPassword.problem("12345678") == nil)
        #expect(NewPassword.problem(String(repeating: "x", count: 1_025)) != nil)
    }
}
