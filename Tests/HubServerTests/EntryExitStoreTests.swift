import CheckInCore
import HubAPI
import HubServer
import KioskTestSupport
import Testing

/// Entry, exit and re-entry through the storage contract, on both stores: the answers, the flags
/// that survive replays, and `inside` after every movement.
@Suite(.serialized, .tags(.endToEnd), .endToEnd, .blocking) struct EntryExitStoreTests {
    typealias Contract = StoreContractTests

    /// Uploads one movement, returns its answer and the event's `inside` afterwards.
    func move(_ store: any HubStore, _ event: EventSummary, _ device: String, _ guest: String, at ms: Int64, _ direction: Direction)
        async throws -> (result: CheckInResult, inside: Int) {
        let results = try await store.ingest(
            event: event, items: [Contract.upload(device, guest, ms, direction: direction)], uploader: Contract.uploader, now: .now())
        return (results[0], try await store.stats(event: event.id).inside)
    }

    @Test(arguments: Contract.kinds) func aSingleEntryGuestLeavesAndIsRefusedOnTheWayBack(kind: String) async throws {
        let (store, directory) = try await Contract.makeStore(kind)
        defer { directory.remove() }
        let event = try await Contract.seed(store)
        let entry = try await move(store, event, "a", "G1", at: 0, .entry)
        #expect(entry.result.decision == .admitted && entry.result.flag == nil)
        #expect(entry.inside == 1)
        let exit = try await move(store, event, "b", "G1", at: 600_000, .exit)
        #expect(exit.result.status == .accepted && exit.result.decision == .admitted && exit.result.flag == nil)
        #expect(exit.inside == 0)
        let back = try await move(store, event, "a", "G1", at: 1_200_000, .entry)
        #expect(back.result.status == .rejected && back.result.decision == .alreadyCheckedIn)
        #expect(back.result.previous?.deviceID == "a", "names the first admission")
        #expect(back.inside == 0)
        let stats = try await store.stats(event: "ev1")
        #expect(stats.checkedIn == 1)
        #expect(stats.flaggedExits == 0)
        await store.close()
    }

    @Test(arguments: Contract.kinds) func aReentryGuestComesAndGoesAndInsideFollows(kind: String) async throws {
        let (store, directory) = try await Contract.makeStore(kind)
        defer { directory.remove() }
        let event = try await Contract.seed(store, reentry: true)  // G3 holds a staff pass (re-entry)
        var insides: [Int] = []
        for (ms, direction) in [(0, Direction.entry), (600_000, .exit), (1_200_000, .entry), (1_210_000, .exit), (1_220_000, .entry)] {
            let step = try await move(store, event, "door", "G3", at: Int64(ms), direction)
            #expect(step.result.status == .accepted && step.result.flag == nil, "\(direction) at \(ms)")
            insides.append(step.inside)
        }
        // Back 10 s after leaving (within the tolerance window of the entry before): a new entry.
        #expect(insides == [1, 0, 1, 0, 1])
        let stats = try await store.stats(event: "ev1")
        #expect(stats.checkedIn == 1, "one guest, however often they came in")
        #expect(stats.accessTypes.first { $0.id == "staff-pass" }?.inside == 1)
        await store.close()
    }

    @Test(arguments: Contract.kinds) func exitsWithoutEntryAreRecordedFlaggedListedAndReplayedAlike(kind: String) async throws {
        let (store, directory) = try await Contract.makeStore(kind)
        defer { directory.remove() }
        let event = try await Contract.seed(store)
        let never = try await move(store, event, "x", "G2", at: 0, .exit)
        #expect(never.result.status == .accepted && never.result.decision == .admitted)
        #expect(never.result.flag == .exitWithoutEntry)
        _ = try await move(store, event, "a", "G1", at: 0, .entry)
        _ = try await move(store, event, "b", "G1", at: 60_000, .exit)
        let twice = try await move(store, event, "c", "G1", at: 120_000, .exit)
        #expect(twice.result.flag == .exitWithoutEntry, "the last movement was already an exit")
        #expect(twice.inside == 0)

        // A replay gets the same answer, flag included, and adds nothing.
        let replay = try await store.ingest(event: event, items: [Contract.upload("x", "G2", 0, direction: .exit)], uploader: Contract.uploader, now: .now())
        #expect(replay == [never.result])
        let flagged = try await store.flaggedExits(event: "ev1")
        #expect(flagged.map(\.guestID) == ["G2", "G1"])
        #expect(flagged.map(\.flag) == [.exitWithoutEntry, .exitWithoutEntry])
        #expect(flagged[1].exit == PreviousCheckIn(by: "Op c", station: "Door c", deviceID: "c", at: Timestamp(milliseconds: Contract.base + 120_000)))
        #expect(try await store.stats(event: "ev1").flaggedExits == 2)

        // Undoing a flagged exit takes it off the list.
        let undo = UndoUpload(key: Contract.upload("x", "G2", 0).key, undoneAt: .now(), station: "Desk", operatorName: "Sam")
        #expect(try await store.undo(event: event, items: [undo], caller: Contract.uploader, now: .now()).map(\.status) == [.undone])
        #expect(try await store.flaggedExits(event: "ev1").map(\.guestID) == ["G1"])
        #expect(try await store.stats(event: "ev1").flaggedExits == 1)
        await store.close()
    }

    @Test(arguments: Contract.kinds) func aBatchDecidesEachMovementOnTheOnesBeforeIt(kind: String) async throws {
        let (store, directory) = try await Contract.makeStore(kind)
        defer { directory.remove() }
        let event = try await Contract.seed(store, reentry: true)
        // An offline station's queue: in, out, out again, in (re-entry pass), all in one upload.
        let results = try await store.ingest(event: event, items: [
            Contract.upload("a", "G3", 0), Contract.upload("a", "G3", 60_000, direction: .exit),
            Contract.upload("a", "G3", 120_000, direction: .exit), Contract.upload("a", "G3", 180_000),
        ], uploader: Contract.uploader, now: .now())
        #expect(results.map(\.status) == [.accepted, .accepted, .accepted, .accepted])
        #expect(results.map(\.flag) == [nil, nil, .exitWithoutEntry, nil])
        #expect(try await store.stats(event: "ev1").inside == 1)
        await store.close()
    }
}
