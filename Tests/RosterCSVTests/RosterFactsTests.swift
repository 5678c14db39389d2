import CheckInCore
import Foundation
import Testing
@testable import RosterCSV

/// What each export's per-ticket columns become (the door's use of them is tested end to end).
@Suite("Per-ticket facts read from exports")
struct RosterFactsTests {
    let berlin = TimeZone(identifier: "Europe/Berlin")!

    func instant(_ iso: String) -> Timestamp {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return Timestamp(formatter.date(from: iso)!)
    }

    @Test("pretix's validity, note, order and earlier check-in are read in the event's time zone")
    func pretixFacts() throws {
        let csv = """
            Order code,Attendee name,Secret,Checked in,Requires special attention,Blocked,Valid from,Valid until,Check-in text
            FAM01,Ana,s1,2026-11-24 08:12,No,No,2026-07-01 09:00,2026-07-01,
            X2,Vera,s2,,Yes,No,,,Hand out the VIP lanyard
            X3,Ivo,s3,,Yes,No,,,

            """
        let file = try RosterCSVParser.parse(Data(csv.utf8), options: RosterSheet.Options(timeZone: berlin))
        #expect(file.rejected.isEmpty, "\(file.rejected)")
        let ana = file.rows[0].facts
        #expect(ana.orderCode == "FAM01")
        #expect(ana.checkedInBefore == instant("2026-11-24T07:12:00.000Z"))
        #expect(ana.validFrom == instant("2026-07-01T07:00:00.000Z"), "summer time: UTC+2")
        #expect(ana.validUntil == instant("2026-07-01T21:59:59.999Z"), "a date alone is valid all that day")
        #expect(ana.attention == nil)
        #expect(file.rows[1].facts.attention == "Hand out the VIP lanyard")
        #expect(file.rows[2].facts.attention == "Requires special attention")
    }

    @Test("dates are accepted as ISO 8601 with an offset, YYYY-MM-DD HH:MM and DD.MM.YYYY HH:MM", arguments: [
        ("2026-11-24T08:30:00+01:00", "2026-11-24T07:30:00.000Z"),
        ("2026-11-24T07:30:00Z", "2026-11-24T07:30:00.000Z"),
        ("2026-11-24 08:30", "2026-11-24T07:30:00.000Z"),
        ("2026-11-24T08:30:15", "2026-11-24T07:30:15.000Z"),
        ("24.11.2026 08:30", "2026-11-24T07:30:00.000Z"),
        ("2026-11-24", "2026-11-23T23:00:00.000Z"),
    ])
    func dateForms(_ text: String, _ expected: String) {
        #expect(RosterDate.parse(text, timeZone: berlin) == instant(expected))
    }

    @Test("a date that is not one rejects the row with its line, never guessed", arguments: ["tomorrow", "2026-13-01", "2026-02-30 10:00", "31.12.99 10:00", "2026-11-24 25:00"])
    func badDates(_ text: String) throws {
        let file = try RosterCSVParser.parse(Data("code,name,valid_from\nA1,Ana,\(text)\n".utf8))
        #expect(file.rows.isEmpty)
        #expect(file.rejected.first?.line == 2)
        #expect(file.rejected.first?.reason.contains("not a date") == true, "\(file.rejected)")
    }

    @Test("a window that ends before it starts rejects the row")
    func backwardsWindow() throws {
        let file = try RosterCSVParser.parse(Data("code,name,valid_from,valid_until\nA1,Ana,2026-11-24 10:00,2026-11-24 09:00\n".utf8))
        #expect(file.rejected.first?.reason.contains("before valid from") == true)
    }

    @Test("Eventbrite's order number is the order code")
    func eventbriteOrder() throws {
        let file = try RosterCSVParser.parse(Data("Order #,First Name,Last Name,Barcode #,Attendee Status\n1234,Ana,Lima,b1,Attending\n".utf8))
        #expect(file.rows.first?.facts.orderCode == "1234")
        #expect(file.format == "eventbrite")
    }

    @Test("the report names the columns recognised and the ones ignored, as written")
    func ignoredColumns() throws {
        let file = try RosterCSVParser.parse(Data("code,name,Seat row,Price,\nA1,Ana,3,10,\n".utf8))
        #expect(file.recognisedColumns == ["ticket code", "name"])
        #expect(file.ignoredColumns == ["Seat row", "Price"])
        #expect(file.readAs.hasSuffix("; ignored: Seat row, Price"))
    }
}
