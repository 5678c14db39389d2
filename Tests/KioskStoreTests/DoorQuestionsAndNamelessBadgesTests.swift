import CheckInCore
import Foundation
import GRDB
import KioskTestSupport
import Testing
@testable import KioskStore

/// A ticket's questions at the door, answered into its check-in, and a ticket with no name yet
/// (a signed ticket admitted before its order arrived): no label with an empty name line.
@Suite("Questions at the door and nameless badges in the store")
struct DoorQuestionsAndNamelessBadgesTests {
    let t0 = Timestamp(milliseconds: 1_790_000_000_000)
    let waiver = DoorQuestion(id: "12", text: "I accept the waiver", kind: .yesNo, required: true)

    func station() async throws -> Station {
        let station = try await Station()
        let workshop = AccessType(id: "workshop", name: "Workshop")
        let guests = [Guest(id: "signed-1", code: TicketCode(normalizing: "SIGNED1", caseInsensitive: false)!, name: "", accessTypeID: "workshop"),
                      Guest(id: "named-1", code: TicketCode(normalizing: "NAMED1", caseInsensitive: false)!, name: "Quinn", accessTypeID: "workshop",
                            facts: TicketFacts(questionsToAsk: ["12"]))]
        // The event the guests belong to, as a sync would have chosen it.
        _ = try await station.database.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO settings (key, value) VALUES (?, 'local')", arguments: [KioskDatabase.SyncSettingKey.eventID.rawValue])
        }
        try await station.database.applyRoster([RosterDelta(accessTypes: [workshop], guests: guests, nextCursor: "")], eventID: "local",
                                               complete: false, movesCursor: false)
        return station
    }

    @Test("an entry is asked its questions, recorded once they are answered, and its check-in carries the answers")
    func answersGoWithTheCheckIn() async throws {
        let station = try await station()
        defer { station.directory.remove() }
        var request = CheckInRequest(rawCode: "NAMED1", source: .scanner, at: t0)
        request.questions = [waiver]
        let asked = try await station.database.desk.checkIn(request)
        #expect(asked.decision == .questions(QuestionsAtTheDoor(questions: [waiver])) && asked.recorded == nil)
        #expect(try station.database.outbox.pendingOutbox().isEmpty, "nothing recorded, nothing reported as refused")
        request.answers = ["12": "y"]
        let admitted = try await station.database.desk.checkIn(request)
        #expect(admitted.decision == .admitted && admitted.recorded?.answers == ["12": "True"])
        guard case .success(.checkIn(let uploaded))? = try station.database.outbox.pendingOutbox().first?.change else {
            Issue.record("the check-in waits for upload")
            return
        }
        #expect(uploaded.answers == ["12": "True"], "the answers go up with the check-in")
    }

    @Test("questions answered at an entry are not asked again at the next one before the next download; one left empty is")
    func answeredQuestionsAreNotAskedAgain() async throws {
        let station = try await Station()
        defer { station.directory.remove() }
        let phone = DoorQuestion(id: "14", text: "Phone", kind: .phone, required: false)
        let dayPass = AccessType(id: "workshop", name: "Workshop", reentry: true)
        let guest = Guest(id: "named-2", code: TicketCode(normalizing: "NAMED2", caseInsensitive: false)!, name: "Hal", accessTypeID: "workshop",
                          facts: TicketFacts(orderCode: "ABC12", questionsToAsk: ["12", "14"]))
        _ = try await station.database.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO settings (key, value) VALUES (?, 'local')", arguments: [KioskDatabase.SyncSettingKey.eventID.rawValue])
        }
        try await station.database.applyRoster([RosterDelta(accessTypes: [dayPass], guests: [guest], nextCursor: "")], eventID: "local",
                                               complete: false, movesCursor: false)
        var request = CheckInRequest(rawCode: "NAMED2", source: .scanner, at: t0)
        request.questions = [waiver, phone]
        request.answers = ["12": "yes", "14": ""]
        #expect(try await station.database.desk.checkIn(request).decision == .admitted)
        let kept = try #require(try station.database.roster.guest(code: "NAMED2")).guest
        #expect(kept.facts.questionsToAsk == ["14"], "the waiver was answered; the empty phone is asked again")
        #expect(kept.name == "Hal" && kept.facts.orderCode == "ABC12", "the rest of the sealed record is as it was")
    }

    @Test("a ticket with no name yet is admitted without a badge, which waits for the desk")
    func noLabelWithoutAName() async throws {
        let station = try await station()
        defer { station.directory.remove() }
        let badge = BadgeRequest(policy: .onAdmission, queue: "badge")
        let nameless = try await station.database.desk.checkIn(CheckInRequest(rawCode: "SIGNED1", source: .scanner, at: t0, badge: badge))
        #expect(nameless.decision == .admitted && nameless.badgeJob == nil && nameless.badgeWithheld, "\(nameless.decision)")
        var named = CheckInRequest(rawCode: "NAMED1", source: .scanner, at: t0, badge: badge)
        named.questions = [waiver]
        named.answers = ["12": "yes"]
        let printed = try await station.database.desk.checkIn(named)
        #expect(printed.badgeJob != nil && !printed.badgeWithheld)
    }
}
