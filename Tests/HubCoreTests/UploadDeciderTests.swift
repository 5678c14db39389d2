import CheckInCore
import HubAPI
import Testing
@testable import HubCore

/// The walk-in and undo decisions both stores apply, without I/O.
@Suite struct UploadDeciderTests {
    let now = Timestamp(milliseconds: 1_780_000_000_000)
    let event = EventSummary(id: "ev", name: "Conf", toleranceWindowMilliseconds: 30_000, stationUndoMilliseconds: 300_000)

    func walkIn(email: String = "", type: String = "general") -> WalkInUpload {
        WalkInUpload(guestID: "w-1", code: "W-1", name: "Walk In", email: email, accessTypeID: type, deviceID: "door-1",
                     station: "Door 1", operatorName: "Alex", createdAt: now)
    }

    @Test func aReplayedWalkInGetsItsFirstAnswerAndWritesNothing() {
        let first = WalkInResult(guestID: "w-1", status: .accepted, possibleDuplicateOf: "g-7", accessTypeID: "general")
        let facts = WalkInDecider.Facts(recorded: first, codeTaken: true, accessTypes: [], sameEmail: nil)
        #expect(WalkInDecider.decide(walkIn(), facts: facts) == .answer(first))
    }

    @Test func aWalkInWithAnotherGuestsCodeOrBeforeAnyRosterIsRefusedWithAReason() {
        let taken = WalkInDecider.decide(walkIn(), facts: .init(recorded: nil, codeTaken: true, accessTypes: ["general"], sameEmail: nil))
        #expect(taken == .answer(WalkInResult(guestID: "w-1", status: .rejected, reason: "ticket code already belongs to another guest")))
        guard case .answer(let early) = WalkInDecider.decide(walkIn(), facts: .init(recorded: nil, codeTaken: false, accessTypes: [], sameEmail: nil)) else {
            Issue.record("a walk-in before any access type must be refused")
            return
        }
        #expect(early.status == .rejected)
    }

    @Test func anUnknownTypeFallsBackAndIsFlaggedAndASharedEmailIsFlaggedNeverMerged() {
        let decision = WalkInDecider.decide(
            walkIn(email: "g7@x.org", type: "vip"), facts: .init(recorded: nil, codeTaken: false, accessTypes: ["general", "day"], sameEmail: "g-7"))
        guard case .record(let type, let review, let twin, let result) = decision else {
            Issue.record("expected the walk-in to be recorded")
            return
        }
        #expect(type == "general")
        #expect(review != nil)
        #expect(twin == "g-7")
        #expect(result.status == .accepted && result.possibleDuplicateOf == "g-7" && result.accessTypeID == "general")
        // Without an e-mail there is nothing to compare.
        guard case .record(_, _, let none, _) = WalkInDecider.decide(
            walkIn(), facts: .init(recorded: nil, codeTaken: false, accessTypes: ["general"], sameEmail: "g-7")) else { return }
        #expect(none == nil)
    }

    func undo(device: String = "door-1") -> UndoUpload {
        UndoUpload(key: IdempotencyKey(deviceID: device, guestID: "G1", scannedAt: now), undoneAt: now, station: "Door 1", operatorName: "Alex")
    }

    @Test func theStationThatMadeACheckInMayUndoItWithinTheUndoTimeAndSupportAlways() {
        let staff = Uploader(staffID: "s", role: .staff, deviceID: "door-1")
        let fresh = UndoDecider.Recorded(recordedAt: now.adding(milliseconds: -60_000), undone: false)
        let old = UndoDecider.Recorded(recordedAt: now.adding(milliseconds: -600_000), undone: false)
        #expect(UndoDecider.decide(undo(), recorded: fresh, caller: staff, event: event, now: now) == .init(result: .init(key: undo().key, status: .undone), markUndone: true))
        #expect(UndoDecider.decide(undo(), recorded: old, caller: staff, event: event, now: now).result.status == .forbidden)
        #expect(UndoDecider.decide(undo(device: "door-2"), recorded: fresh, caller: staff, event: event, now: now).result.status == .forbidden)
        let support = Uploader(staffID: "p", role: .support, deviceID: nil)
        #expect(UndoDecider.decide(undo(), recorded: old, caller: support, event: event, now: now).markUndone)
    }

    @Test func anUndoReplayedOrOfNothingChangesNothing() {
        let support = Uploader(staffID: "p", role: .support, deviceID: nil)
        let done = UndoDecider.Recorded(recordedAt: now, undone: true)
        #expect(UndoDecider.decide(undo(), recorded: done, caller: support, event: event, now: now) == .init(result: .init(key: undo().key, status: .undone), markUndone: false))
        let missing = UndoDecider.decide(undo(), recorded: nil, caller: support, event: event, now: now)
        #expect(missing.result.status == .notFound && !missing.markUndone)
    }
}
