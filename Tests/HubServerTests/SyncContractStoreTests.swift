import CheckInCore
import Foundation
import HubAPI
import HubServer
import KioskTestSupport
import RosterCSV
import Testing

/// Issue 15's storage contract, on SQLite and PostgreSQL alike: implausible rows, answers that
/// are not final, station registrations, refresh grace, walk-ins under the default type.
@Suite(.serialized, .tags(.endToEnd), .endToEnd, .blocking) struct SyncContractStoreTests {
    static let kinds = StoreContractTests.kinds
    typealias Contract = StoreContractTests

    @Test(arguments: Contract.databaseKinds) func aPlantedImplausibleCheckInIsNeitherReplicatedNorAnAdmission(kind: String) async throws {
        let (store, directory, url) = try await Contract.makeStoreAt(kind)
        defer { directory.remove() }
        let event = try await Contract.seed(store)
        try DatabaseSQL.plantCheckIn(url, event: "ev1", device: "evil", guest: "G1", scannedAt: Int64.min + 5)
        try DatabaseSQL.plantCheckIn(url, event: "ev1", device: "evil", guest: "G2", scannedAt: Int64.max - 5)
        let now = Timestamp.now()
        let honest = ["G1", "G2"].map { guest in
            CheckInUpload(key: IdempotencyKey(deviceID: "door", guestID: guest, scannedAt: now.adding(milliseconds: -1_000)),
                          station: "Door", operatorName: "Alex", source: .camera)
        }
        let results = try await store.ingest(event: event, items: honest, uploader: Contract.uploader, now: now)
        #expect(results.map(\.decision) == [.admitted, .admitted], "the planted rows are not admissions")
        let page = try await store.rosterPage(event: "ev1", after: 0, limit: 1_000, now: now)
        #expect(Set(page.checkIns.map(\.key.deviceID)) == ["door"])
        #expect(page.checkIns.count == 2)
        await store.close()
    }

    @Test(arguments: Contract.databaseKinds) func anUnknownCodeIsAuditedButDecidedAfreshOnTheNextUpload(kind: String) async throws {
        let (store, directory, url) = try await Contract.makeStoreAt(kind)
        defer { directory.remove() }
        let event = try await Contract.seed(store)
        let item = Contract.upload("a", "LATE", 1_000)
        let uploader = Uploader(staffID: "st_alex", role: .staff, deviceID: "a")
        #expect(try await store.ingest(event: event, items: [item], uploader: uploader, now: .now()).map(\.decision) == [.unknownCode])
        #expect(try await store.ingest(event: event, items: [item], uploader: uploader, now: .now()).map(\.decision) == [.unknownCode])
        // The guest reaches the roster; the same key is now admitted, not refused for good.
        _ = try await store.importRoster(event: "ev1", rows: [
            RosterRow(line: 2, code: TicketCode(stored: "LATE"), name: "Late Guest", email: "", company: "", accessType: "General"),
        ], replace: false, audit: nil)
        #expect(try await store.ingest(event: event, items: [item], uploader: uploader, now: .now()).map(\.decision) == [.admitted])
        #expect(try await store.ingest(event: event, items: [item], uploader: uploader, now: .now()).map(\.status) == [.accepted])
        let audit = try DatabaseSQL.run(url, "SELECT uploaded_by || '/' || operator_name || '/' || decision FROM check_in_attempts WHERE guest_id = 'LATE'")
        #expect(audit == ["st_alex/Op a/unknown_code", "st_alex/Op a/unknown_code"], "every attempt is audited")
        #expect(try DatabaseSQL.run(url, "SELECT uploaded_by FROM check_ins WHERE guest_id = 'LATE'") == ["st_alex"])
        await store.close()
    }

    @Test(arguments: kinds) func aDeviceIDBelongsToOneStationRegistration(kind: String) async throws {
        let (store, directory) = try await Contract.makeStore(kind)
        defer { directory.remove() }
        try await store.addStaff(StaffInfo(id: "s1", email: "a@x.org", name: "Alex", role: .staff), passwordHash: "x", audit: nil)
        try await store.addStaff(StaffInfo(id: "s2", email: "m@x.org", name: "Mallory", role: .staff), passwordHash: "x", audit: nil)
        let now = Timestamp.now()
        for (session, staff) in [("ses1", "s1"), ("ses2", "s2"), ("ses3", "s1")] {
            try await store.createSession(NewSession(id: session, staffID: staff, tokens: NewTokens(
                accessHash: "a-" + session, accessExpires: now.adding(milliseconds: 600_000),
                refreshHash: "r-" + session, refreshExpires: now.adding(milliseconds: 6_000_000)), createdAt: now))
        }
        func claim(_ session: String, _ staff: String, secret: String) -> StationClaim {
            StationClaim(deviceID: "door-1", secretHash: Tokens.hash(secret), name: "Door 1", sessionID: session, staffID: staff, now: now)
        }
        #expect(try await store.registerStation(claim("ses1", "s1", secret: "secret-of-door-1")) == .registered)
        #expect(try await store.session(accessHash: "a-ses1", now: now)?.deviceID == "door-1")
        // Another session with another secret may not claim it.
        #expect(try await store.registerStation(claim("ses2", "s2", secret: "guessed-secret-xx")) == .deviceTaken)
        #expect(try await store.session(accessHash: "a-ses2", now: now)?.deviceID == nil)
        #expect(try await store.session(accessHash: "a-ses1", now: now)?.deviceID == "door-1")
        // The same station signing in again takes its registration over; the old session loses it.
        #expect(try await store.registerStation(claim("ses3", "s1", secret: "secret-of-door-1")) == .registered)
        #expect(try await store.session(accessHash: "a-ses3", now: now)?.deviceID == "door-1")
        #expect(try await store.session(accessHash: "a-ses1", now: now)?.deviceID == nil)
        await store.close()
    }

    @Test(arguments: kinds) func thePreviousRefreshTokenWorksWithinTheGraceAndRevokesAfter(kind: String) async throws {
        let (store, directory) = try await Contract.makeStore(kind)
        defer { directory.remove() }
        try await store.addStaff(StaffInfo(id: "s1", email: "a@x.org", name: "Alex", role: .staff), passwordHash: "x", audit: nil)
        let t0 = Timestamp.now()
        func tokens(_ n: Int) -> NewTokens {
            NewTokens(accessHash: "a\(n)", accessExpires: t0.adding(milliseconds: 3_600_000), refreshHash: "r\(n)", refreshExpires: t0.adding(milliseconds: 86_400_000))
        }
        try await store.createSession(NewSession(id: "ses1", staffID: "s1", tokens: tokens(1), createdAt: t0))
        #expect(try await store.rotate(refreshHash: "r1", to: tokens(2), now: t0, graceMilliseconds: 60_000)?.sessionID == "ses1")
        // The answer was lost: r1 again, 10 s later, gets a fresh pair and the session lives.
        #expect(try await store.rotate(refreshHash: "r1", to: tokens(3), now: t0.adding(milliseconds: 10_000), graceMilliseconds: 60_000)?.sessionID == "ses1")
        #expect(try await store.session(accessHash: "a3", now: t0)?.sessionID == "ses1")
        // r2 (now the previous token) is still good within the grace of that rotation…
        #expect(try await store.rotate(refreshHash: "r2", to: tokens(4), now: t0.adding(milliseconds: 20_000), graceMilliseconds: 60_000) != nil)
        #expect(try await store.rotate(refreshHash: "r4", to: tokens(5), now: t0.adding(milliseconds: 30_000), graceMilliseconds: 60_000) != nil)
        // …but r4, previous since 30 s, presented 2 minutes later is a copy: the session ends.
        #expect(try await store.rotate(refreshHash: "r4", to: tokens(6), now: t0.adding(milliseconds: 150_000), graceMilliseconds: 60_000) == nil)
        #expect(try await store.session(accessHash: "a5", now: t0) == nil)
        #expect(try await store.rotate(refreshHash: "r5", to: tokens(7), now: t0.adding(milliseconds: 160_000), graceMilliseconds: 60_000) == nil)
        await store.close()
    }

    @Test(arguments: Contract.databaseKinds) func aWalkInOfAnUnknownAccessTypeIsKeptUnderTheDefaultAndFlagged(kind: String) async throws {
        let (store, directory, url) = try await Contract.makeStoreAt(kind)
        defer { directory.remove() }
        let event = try await Contract.seed(store)
        let walkIn = WalkInUpload(guestID: "w-1", code: "W-1", name: "Walk In", accessTypeID: "vip-backstage",
                                  deviceID: "a", station: "Door a", operatorName: "Op a", createdAt: .now())
        let uploader = Uploader(staffID: "st_alex", role: .staff, deviceID: "a")
        let results = try await store.ingestWalkIns(event: event, items: [walkIn, walkIn], uploader: uploader, now: .now())
        #expect(results.map(\.status) == [.accepted, .accepted])
        #expect(results.map(\.accessTypeID) == ["general", "general"])
        #expect(results.allSatisfy { $0.review != nil })
        let page = try await store.rosterPage(event: "ev1", after: 0, limit: 1_000, now: .now())
        #expect(Set(page.accessTypes.map(\.id)) == ["general", "staff-pass"], "no access type was created")
        #expect(page.guests.first { $0.id == "w-1" }?.accessTypeID == "general")
        let reviews = try await store.walkInReviews(event: "ev1")
        #expect(reviews.map(\.guestID) == ["w-1"])
        #expect(reviews.first?.requestedAccessTypeID == "vip-backstage")
        #expect(reviews.first?.uploadedBy == "st_alex")
        #expect(reviews.first?.operatorName == "Op a")
        // A known type is taken as sent and not flagged.
        var known = walkIn
        known.guestID = "w-2"
        known.code = "W-2"
        known.accessTypeID = "staff-pass"
        let second = try await store.ingestWalkIns(event: event, items: [known], uploader: uploader, now: .now())
        #expect(second.first?.accessTypeID == "staff-pass")
        #expect(second.first?.review == nil)
        #expect(try await store.walkInReviews(event: "ev1").count == 1)
        #expect(try DatabaseSQL.run(url, "SELECT uploaded_by FROM walk_ins ORDER BY guest_id") == ["st_alex", "st_alex"])
        await store.close()
    }

    @Test(arguments: Contract.databaseKinds) func undosRecordTheUploadingStaffMember(kind: String) async throws {
        let (store, directory, url) = try await Contract.makeStoreAt(kind)
        defer { directory.remove() }
        let event = try await Contract.seed(store)
        let upload = Contract.upload("a", "G1", 1_000)
        _ = try await store.ingest(event: event, items: [upload], uploader: Uploader(staffID: "st_alex", role: .staff, deviceID: "a"), now: .now())
        let undo = UndoUpload(key: upload.key, undoneAt: .now(), station: "Desk", operatorName: "Reported Name")
        let result = try await store.undo(event: event, items: [undo], caller: Uploader(staffID: "st_sam", role: .support, deviceID: "desk"), now: .now())
        #expect(result.map(\.status) == [.undone])
        #expect(try DatabaseSQL.run(url, "SELECT uploaded_by || '/' || operator_name FROM undo_log") == ["st_sam/Reported Name"])
        await store.close()
    }
}
