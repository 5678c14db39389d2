import CheckInCore
import Foundation
import HubAPI
import HubServer
import KioskTestSupport
import Testing

/// The review page's store methods (ReviewRepository): SQLite and PostgreSQL list the same items,
/// and each action changes what it says, with its organizer action in the same transaction.
@Suite(.serialized, .tags(.endToEnd), .endToEnd, .blocking) struct ReviewStoreTests {
    static let olga = StaffInfo(id: "s-org", email: "olga@example.org", name: "Olga", role: .organizer)
    static let door = Uploader(staffID: "s-door", role: .staff, deviceID: "dev-a")

    static func upload(_ guest: String, device: String = "dev-a", at: Timestamp, direction: Direction = .entry) -> CheckInUpload {
        CheckInUpload(key: IdempotencyKey(deviceID: device, guestID: guest, scannedAt: at), station: device == "dev-a" ? "Door A" : "Door B",
                      operatorName: device == "dev-a" ? "Alex" : "Bea", source: .typed, direction: direction)
    }

    @Test(arguments: StoreContractTests.kinds) func aConflictIsListedWithBothAdmissionsAndMarkingItReviewedIsAudited(kind: String) async throws {
        let (store, directory) = try await StoreContractTests.makeStore(kind)
        defer { directory.remove() }
        let event = try await StoreContractTests.seed(store)
        let now = Timestamp.now()
        let first = now.adding(milliseconds: -120_000), second = now.adding(milliseconds: -60_000)
        _ = try await store.ingest(event: event, items: [Self.upload("G1", at: first)], uploader: Self.door, now: now)
        let answer = try await store.ingest(event: event, items: [Self.upload("G1", device: "dev-b", at: second)],
                                            uploader: Uploader(staffID: "s-door", role: .staff, deviceID: "dev-b"), now: now)
        #expect(answer.first?.decision == .alreadyCheckedIn)

        let items = try await store.reviewItems(event: "ev1", limit: 100)
        let conflict = try #require(items.first { $0.kind == .conflict })
        #expect(conflict.guest == ReviewGuest(id: "G1", name: "Guest 1", code: "G1", email: "g1@example.com"))
        #expect(conflict.first == ReviewUpload(deviceID: "dev-a", guestID: "G1", at: first, station: "Door A", operatorName: "Alex"))
        #expect(conflict.upload == ReviewUpload(deviceID: "dev-b", guestID: "G1", at: second, station: "Door B", operatorName: "Bea"))
        #expect(conflict.decision == "already_checked_in")
        #expect(conflict.mark == nil && !conflict.firstUndone)

        let at = now.adding(milliseconds: 1_000)
        let marked = try await store.markReviewed(event: "ev1", kind: .conflict, subject: conflict.subject, by: Self.olga, now: at)
        let mark = ReviewMark(resolution: .reviewed, actorID: "s-org", actorName: "Olga", at: at)
        #expect(marked == .marked(mark))
        #expect(try await store.reviewItems(event: "ev1", limit: 100).first { $0.subject == conflict.subject }?.mark == mark)
        // A second click changes nothing and writes no second entry.
        #expect(try await store.markReviewed(event: "ev1", kind: .conflict, subject: conflict.subject, by: Self.olga, now: now) == .alreadyMarked(mark))
        #expect(try await store.markReviewed(event: "ev1", kind: .conflict, subject: "dev-x/G9/1", by: Self.olga, now: now) == .notFound)
        #expect(try await store.markReviewed(event: "ev1", kind: .refusal, subject: conflict.subject, by: Self.olga, now: now) == .notFound)
        let actions = try await store.organizerActions(event: "ev1")
        #expect(actions.map(\.kind) == [.conflictReviewed])
        #expect(actions.first?.subject == conflict.subject && actions.first?.actorName == "Olga" && actions.first?.at == at)
        await store.close()
    }

    @Test(arguments: StoreContractTests.kinds) func refusedUploadsAndFlaggedExitsAreListedOncePerKey(kind: String) async throws {
        let (store, directory) = try await StoreContractTests.makeStore(kind)
        defer { directory.remove() }
        let event = try await StoreContractTests.seed(store)
        let now = Timestamp.now()
        #expect(try await store.setRevoked(event: "ev1", guestID: "G2", revoked: true, action: nil))
        let unknown = Self.upload("NOPE", at: now.adding(milliseconds: -30_000))
        _ = try await store.ingest(event: event, items: [
            Self.upload("G2", at: now.adding(milliseconds: -50_000)), unknown,
            Self.upload("G3", at: now.adding(milliseconds: -20_000), direction: .exit),
        ], uploader: Self.door, now: now)
        // The station retries an unknown code: still one item.
        _ = try await store.ingest(event: event, items: [unknown], uploader: Self.door, now: now)

        let items = try await store.reviewItems(event: "ev1", limit: 100)
        #expect(items.map(\.kind) == [.refusal, .refusal, .flaggedExit])
        #expect(items.map(\.decision) == ["revoked", "unknown_code", "exit_without_entry"])
        #expect(items[1].guest == ReviewGuest(id: "NOPE"), "no such guest: no name, no code")
        #expect(try await store.markReviewed(event: "ev1", kind: .refusal, subject: items[1].subject, by: Self.olga, now: now)
                == .marked(ReviewMark(resolution: .reviewed, actorID: "s-org", actorName: "Olga", at: now)))
        #expect(try await store.markReviewed(event: "ev1", kind: .flaggedExit, subject: items[2].subject, by: Self.olga, now: now) != .notFound)
        #expect(try await store.organizerActions(event: "ev1").map(\.kind) == [.refusalReviewed, .conflictReviewed])
        #expect(try await store.reviewItems(event: "ev1", limit: 100).filter { $0.mark == nil }.map(\.kind) == [.refusal])
        #expect(try await store.reviewItems(event: "ev1", limit: 1).count == 1)
        await store.close()
    }

    @Test(arguments: StoreContractTests.kinds) func mergingAWalkInMovesItsCheckInsToTheRegistrationAndTellsStations(kind: String) async throws {
        let (store, directory) = try await StoreContractTests.makeStore(kind)
        defer { directory.remove() }
        let event = try await StoreContractTests.seed(store)
        let now = Timestamp.now()
        let walkIn = WalkInUpload(guestID: "W-1", code: "WALK1", name: "Guest One", email: "G1@example.com", accessTypeID: "general",
                                  deviceID: "dev-a", station: "Door A", operatorName: "Alex", createdAt: now.adding(milliseconds: -10_000))
        let recorded = try await store.ingestWalkIns(event: event, items: [walkIn], uploader: Self.door, now: now)
        #expect(recorded.first?.possibleDuplicateOf == "G1")
        let admission = Self.upload("W-1", at: now.adding(milliseconds: -9_000))
        _ = try await store.ingest(event: event, items: [admission], uploader: Self.door, now: now)
        let flagged = try #require(try await store.reviewItems(event: "ev1", limit: 100).first { $0.kind == .walkIn })
        #expect(flagged.subject == "W-1" && flagged.decision == "possible_duplicate")
        #expect(flagged.registration == ReviewGuest(id: "G1", name: "Guest 1", code: "G1", email: "g1@example.com"))
        let before = try await store.rosterPage(event: "ev1", after: 0, limit: 1_000, now: now).cursor

        #expect(try await store.mergeWalkIn(event: "ev1", walkIn: "W-1", into: "G1", by: Self.olga, now: now) == .merged)
        let page = try await store.rosterPage(event: "ev1", after: before, limit: 1_000, now: now)
        #expect(page.merges == [GuestMerge(guestID: "W-1", into: "G1")])
        #expect(page.deletedGuestIDs == ["W-1"], "older stations drop the walk-in")
        #expect(page.checkIns.map(\.key) == [IdempotencyKey(deviceID: "dev-a", guestID: "G1", scannedAt: admission.key.scannedAt)])
        let stats = try await store.stats(event: "ev1")
        #expect(stats.checkedIn == 1 && stats.expected == 3)
        let merged = try #require(try await store.reviewItems(event: "ev1", limit: 100).first { $0.kind == .walkIn })
        #expect(merged.mark?.resolution == .merged && merged.mark?.actorName == "Olga")
        #expect(merged.registration?.id == "G1")
        // Nothing more: a repeated click, a replayed walk-in upload (its answer was lost).
        #expect(try await store.mergeWalkIn(event: "ev1", walkIn: "W-1", into: "G1", by: Self.olga, now: now) == .alreadyMerged)
        #expect(try await store.ingestWalkIns(event: event, items: [walkIn], uploader: Self.door, now: now).first?.status == .accepted)
        let after = try await store.rosterPage(event: "ev1", after: page.cursor, limit: 1_000, now: now)
        #expect(after.guests.isEmpty && after.merges == nil)
        #expect(try await store.mergeWalkIn(event: "ev1", walkIn: "G2", into: "G1", by: Self.olga, now: now) == .notAWalkIn)
        #expect(try await store.mergeWalkIn(event: "ev1", walkIn: "W-9", into: "G1", by: Self.olga, now: now) == .unknownWalkIn)
        let actions = try await store.organizerActions(event: "ev1")
        #expect(actions.map(\.kind) == [.walkInMerged])
        #expect(actions.first?.subject == "W-1")
        await store.close()
    }

    @Test(arguments: StoreContractTests.kinds) func anOrganizerUndoesAnAdmissionThroughTheStationsUndoPath(kind: String) async throws {
        let (store, directory) = try await StoreContractTests.makeStore(kind)
        defer { directory.remove() }
        let event = try await StoreContractTests.seed(store)
        let now = Timestamp.now()
        let admission = Self.upload("G1", at: now.adding(milliseconds: -60_000))
        _ = try await store.ingest(event: event, items: [admission], uploader: Self.door, now: now)
        let before = try await store.rosterPage(event: "ev1", after: 0, limit: 1_000, now: now).cursor
        // Check-in staff away from the door may not (UndoPolicy), and nothing is audited.
        let dana = StaffInfo(id: "s-door", email: "dana@example.org", name: "Dana", role: .staff)
        #expect(try await store.undoAdmission(event: event, key: admission.key, by: dana, now: now).status == .forbidden)
        #expect(try await store.undoAdmission(event: event, key: admission.key, by: Self.olga, now: now).status == .undone)
        #expect(try await store.stats(event: "ev1").checkedIn == 0)
        let page = try await store.rosterPage(event: "ev1", after: before, limit: 1_000, now: now)
        #expect(page.checkIns.map(\.undone) == [true], "stations hear of it with the next roster change")
        #expect(try await store.undoAdmission(event: event, key: admission.key, by: Self.olga, now: now).status == .undone)
        let missing = IdempotencyKey(deviceID: "dev-a", guestID: "G2", scannedAt: now)
        #expect(try await store.undoAdmission(event: event, key: missing, by: Self.olga, now: now).status == .notFound)
        let actions = try await store.organizerActions(event: "ev1")
        #expect(actions.map(\.kind) == [.admissionUndone], "one entry: refused and repeated undos changed nothing")
        #expect(actions.first?.subject == admission.key.description)
        await store.close()
    }
}
