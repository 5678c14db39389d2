import CheckInCore
import Foundation
import GRDB
import KioskTestSupport
import RosterCSV
import Testing
@testable import KioskStore

/// A migrated station with a small roster.
struct Station {
    let directory = TemporaryDirectory("station")
    let database: KioskDatabase

    init(roster: String = Station.roster) async throws {
        database = try KioskDatabase.open(dataDirectory: directory.url)
        _ = try await database.roster.importRoster(try RosterCSVParser.parse(Data(roster.utf8)))
    }

    static let roster = """
        name,email,company,code,access_type
        José Müller,jose@example.com,ACME,ABC1,VIP
        Ødegård Ås,o@example.no,Fjord AS,ABC2,General
        王小明,wang@example.cn,北京公司,ABC3,General
        Mallory \u{1b}[2J,m@example.com,Evil,ABC4,General
        """
}

@Suite("Check-ins recorded by the store")
struct CheckInStoreTests {
    let t0 = Timestamp(milliseconds: 1_790_000_000_000)

    @Test("an admission writes the check-in, its outbox entry and an audit line together")
    func admission() async throws {
        let station = try await Station()
        defer { station.directory.remove() }
        let result = try await station.database.desk.checkIn(CheckInRequest(rawCode: "abc1\r\n", source: .scanner, operatorName: "Alex", station: "Door 2", at: t0))
        #expect(result.decision == .admitted)
        #expect(result.guest?.guest.name == "José Müller")
        #expect(result.guest?.accessTypeName == "VIP")
        let counts = try station.database.read { db in
            (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM check_ins")!, try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM outbox WHERE state = 'pending'")!,
             try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM audit_log")!)
        }
        #expect(counts == (1, 1, 1))
        #expect(try station.database.outbox.pendingOutbox().first?.ref == result.recorded?.key.description)
    }

    @Test("the second presentation names who, where and when; beyond 30 s it is already checked in")
    func secondPresentation() async throws {
        let station = try await Station()
        defer { station.directory.remove() }
        _ = try await station.database.desk.checkIn(CheckInRequest(rawCode: "ABC2", source: .camera, operatorName: "Alex", station: "Door 2", at: t0))
        let soon = try await station.database.desk.checkIn(CheckInRequest(rawCode: "ABC2", source: .camera, at: t0.adding(milliseconds: 5_000)))
        #expect(soon.decision.kind == .duplicate)
        let later = try await station.database.desk.checkIn(CheckInRequest(rawCode: "ABC2", source: .camera, at: t0.adding(milliseconds: 60_000)))
        #expect(later.decision == .alreadyCheckedIn(previous: PriorCheckIn(by: "Alex", station: "Door 2", deviceID: station.database.deviceID, at: t0)))
        #expect(try station.database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM check_ins") } == 1)
        #expect(try station.database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM audit_log WHERE action = 'attempt'") } == 3)
    }

    @Test("replaying the same idempotency key yields the same single row")
    func replay() async throws {
        let station = try await Station()
        defer { station.directory.remove() }
        let first = try await station.database.desk.checkIn(CheckInRequest(rawCode: "ABC3", source: .camera, at: t0))
        let again = try await station.database.desk.checkIn(CheckInRequest(rawCode: "ABC3", source: .camera, at: t0))
        #expect(again.replayed)
        #expect(again.decision == .admitted)
        #expect(again.recorded?.key == first.recorded?.key)
        #expect(try station.database.outbox.pendingOutbox().count == 1)
    }

    @Test("an unknown or garbled code is refused and audited")
    func unknown() async throws {
        let station = try await Station()
        defer { station.directory.remove() }
        #expect(try await station.database.desk.checkIn(CheckInRequest(rawCode: "NOPE", source: .typed)).decision == .unknownCode)
        #expect(try await station.database.desk.checkIn(CheckInRequest(rawCode: "\u{1b}[31m", source: .camera)).decision == .unknownCode)
        #expect(try station.database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM audit_log WHERE decision = 'unknown_code'") } == 2)
    }

    @Test("revoked tickets and re-entry follow the access type")
    func revokedAndReentry() async throws {
        let station = try await Station()
        defer { station.directory.remove() }
        try await station.database.roster.saveAccessType(AccessType(id: "vip", name: "VIP", reentry: true))
        _ = try await station.database.desk.checkIn(CheckInRequest(rawCode: "ABC1", source: .camera, at: t0))
        #expect(try await station.database.desk.checkIn(CheckInRequest(rawCode: "ABC1", source: .camera, at: t0.adding(milliseconds: 31_000))).decision == .admitted)
        var guest = try #require(try station.database.roster.guest(code: "ABC2")).guest
        guest.revoked = true
        try await station.database.roster.saveGuest(guest)
        #expect(try await station.database.desk.checkIn(CheckInRequest(rawCode: "ABC2", source: .camera, at: t0)).decision == .revoked)
    }

    @Test("a walk-in creates the guest, checks them in and queues both for the hub")
    func walkIn() async throws {
        let station = try await Station()
        defer { station.directory.remove() }
        let result = try await station.database.desk.addWalkIn(WalkInRequest(name: "Walk In", email: "w@example.com", company: "New Co", accessTypeID: "general", at: t0))
        #expect(result.decision == .admitted)
        #expect(result.guest?.guest.walkIn == true)
        #expect(result.guest?.guest.code.value.hasPrefix("W-") == true)
        #expect(try station.database.outbox.pendingOutbox().map(\.kind) == [.walkIn, .checkIn])
        #expect(try station.database.searchIndex.search("walk in").count == 1)
        await #expect(throws: StoreError.self) { _ = try await station.database.desk.addWalkIn(WalkInRequest(name: "  ", accessTypeID: "general")) }
        await #expect(throws: StoreError.self) { _ = try await station.database.desk.addWalkIn(WalkInRequest(name: "X", email: "bad", accessTypeID: "general")) }
        await #expect(throws: StoreError.self) { _ = try await station.database.desk.addWalkIn(WalkInRequest(name: "X", accessTypeID: "nope")) }
    }

    @Test("undo reverts this station's last check-in, audited and queued")
    func undo() async throws {
        let station = try await Station()
        defer { station.directory.remove() }
        _ = try await station.database.desk.checkIn(CheckInRequest(rawCode: "ABC1", source: .camera, at: t0))
        _ = try await station.database.desk.checkIn(CheckInRequest(rawCode: "ABC2", source: .camera, at: t0.adding(milliseconds: 1)))
        let undone = try #require(try await station.database.desk.undoLastCheckIn(operatorName: "Sam"))
        #expect(undone.guest?.guest.code.value == "ABC2")
        #expect(try await station.database.desk.checkIn(CheckInRequest(rawCode: "ABC2", source: .camera, at: t0.adding(milliseconds: 100_000))).decision == .admitted)
        #expect(try station.database.outbox.pendingOutbox().map(\.kind).contains(.undo))
        #expect(try station.database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM audit_log WHERE action = 'undo' AND operator = 'Sam'") } == 1)
    }

    @Test("undo of a check-in the hub has, beyond the hub's undo time, is refused with nothing changed; one still queued is undone")
    func undoBeyondTheHubsWindow() async throws {
        let station = try await Station()
        defer { station.directory.remove() }
        try await station.database.setSetting(.stationUndoMilliseconds, "12000")
        _ = try await station.database.desk.checkIn(CheckInRequest(rawCode: "ABC1", source: .camera, at: t0))
        let queued = try station.database.outbox.pendingOutbox()
        try await station.database.outbox.applyOutboxOutcomes(queued.map { OutboxResult(id: $0.id, outcome: .accepted) })
        await #expect(throws: StoreError.undoBeyondHubWindow(windowMilliseconds: 12_000, ageMilliseconds: 60_000)) {
            _ = try await station.database.desk.undoLastCheckIn(at: t0.adding(milliseconds: 60_000))
        }
        #expect(try station.database.roster.guest(code: "ABC1")?.checkedIn != nil)
        #expect(try station.database.outbox.pendingOutbox().isEmpty)
        #expect(try station.database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM audit_log WHERE action = 'undo'") } == 0)
        #expect(StoreError.undoBeyondHubWindow(windowMilliseconds: 12_000, ageMilliseconds: 60_000).description.contains("now only support staff can undo it"))
        // Within the window it is undone.
        _ = try await station.database.desk.checkIn(CheckInRequest(rawCode: "ABC2", source: .camera, at: t0.adding(milliseconds: 100_000)))
        let second = try station.database.outbox.pendingOutbox()
        try await station.database.outbox.applyOutboxOutcomes(second.map { OutboxResult(id: $0.id, outcome: .accepted) })
        #expect(try await station.database.desk.undoLastCheckIn(at: t0.adding(milliseconds: 105_000)) != nil)
        // Still queued: it reaches the hub with its undo, whatever its age.
        _ = try await station.database.desk.checkIn(CheckInRequest(rawCode: "ABC3", source: .camera, at: t0.adding(milliseconds: 200_000)))
        #expect(try await station.database.desk.undoLastCheckIn(at: t0.adding(milliseconds: 3_600_000)) != nil)
    }

    @Test("a standalone roster's re-entry and this entrance's types are set by name; a hub's types are changed at the hub")
    func standaloneAccessRules() async throws {
        let station = try await Station()
        defer { station.directory.remove() }
        let general = try await station.database.roster.setReentry(accessType: "general", true)
        #expect(general.reentry && general.name == "General")
        await #expect(throws: StoreError.self) { _ = try await station.database.roster.setReentry(accessType: "Backstage", true) }
        #expect(try await station.database.roster.setAdmittedAccessTypes(["General"])?.map(\.id) == [general.id])
        #expect(try station.database.roster.admittedAccessTypes()?.map(\.name) == ["General"])
        await #expect(throws: StoreError.self) { _ = try await station.database.roster.setAdmittedAccessTypes([]) }
        #expect(try await station.database.roster.setAdmittedAccessTypes(nil) == nil)
        #expect(try station.database.roster.admittedAccessTypes() == nil)
        try await station.database.setSetting(.hubURL, "https://hub.example.org")
        do {
            _ = try await station.database.roster.setReentry(accessType: "General", false)
            Issue.record("a hub's access type was changed on the station")
        } catch {
            #expect(error.description.contains("checkin-hub access-type add"))
        }
    }

    @Test("re-importing updates guests by code and never touches recorded check-ins")
    func reimport() async throws {
        let station = try await Station()
        defer { station.directory.remove() }
        _ = try await station.database.desk.checkIn(CheckInRequest(rawCode: "ABC1", source: .camera, at: t0))
        let id = try #require(try station.database.roster.guest(code: "ABC1")).guest.id
        let summary = try await station.database.roster.importRoster(try RosterCSVParser.parse(Data("name,code,company\nJosé Müller-Ruiz,abc1,ACME\nNew Person,ABC9,\n".utf8)))
        #expect(summary.imported == 1)
        #expect(summary.updated == 1)
        let guest = try #require(try station.database.roster.guest(code: "ABC1"))
        #expect(guest.guest.id == id)
        #expect(guest.guest.name == "José Müller-Ruiz")
        #expect(guest.checkedIn != nil)
        #expect(try station.database.outbox.pendingOutbox().count == 1)
        let same = try await station.database.roster.importRoster(try RosterCSVParser.parse(Data("name,code,company\nJosé Müller-Ruiz,abc1,ACME\n".utf8)))
        #expect(same.unchanged == 1 && same.updated == 0 && same.imported == 0)
    }
}
