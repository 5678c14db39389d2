import Foundation
import Synchronization
import Testing
@testable import HubServer

/// The bound on password hashing, in process.
struct HashingGateTests {
    @Test func atMostTheLimitRunAtOnceAndBeyondTheQueueASignInIsTurnedAway() async throws {
        let gate = HashingGate(limit: 1, maximumWaiting: 1)
        let release = DispatchSemaphore(value: 0)
        let running = Mutex((now: 0, most: 0))
        let work: @Sendable () -> Int = {
            running.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
            release.wait()
            running.withLock { $0.now -= 1 }
            return 7
        }
        let first = Task { try await gate.run(work) }
        while gate.load.running < 1 { try await Task.sleep(for: .milliseconds(5)) }
        let second = Task { try await gate.run(work) }
        while gate.load.waiting < 1 { try await Task.sleep(for: .milliseconds(5)) }
        // One running, one waiting: a third is answered at once.
        await #expect(throws: HubProblem.self) { try await gate.run(work) }
        release.signal()
        #expect(try await first.value == 7)
        release.signal()
        #expect(try await second.value == 7)
        #expect(running.withLock { $0.most } == 1)
        #expect(gate.load == (0, 0) ? true : false, "the slot was given back")
    }

    @Test func administrationThenKnownAccountsGoBeforeUnknownEmailsAndDecoysKeepToTheirQueue() async throws {
        let gate = HashingGate(limit: 1, maximumWaiting: 8, unknownWaiting: 2)
        let release = DispatchSemaphore(value: 0)
        let order = Mutex([String]())
        let work: @Sendable (String) -> @Sendable () -> Int = { name in
            { order.withLock { $0.append(name) }; return 0 }
        }
        let blocking = Task { try await gate.run(in: .unknownAccount) { release.wait(); return 0 } }
        while gate.load.running < 1 { try await Task.sleep(for: .milliseconds(5)) }
        var queued: [Task<Int, any Error>] = []
        for (lane, name) in [(HashingGate.Lane.unknownAccount, "decoy 1"), (.unknownAccount, "decoy 2"), (.knownAccount, "sign-in"), (.administration, "staff page")] {
            queued.append(Task { try await gate.run(in: lane, work(name)) })
            let count = queued.count
            while gate.load.waiting < count { try await Task.sleep(for: .milliseconds(5)) }
        }
        // The decoys' queue is full: a third is turned away at once; a sign-in is not.
        await #expect(throws: HubProblem.self) { try await gate.run(in: .unknownAccount, work("decoy 3")) }
        release.signal()
        _ = try await blocking.value
        for task in queued { _ = try await task.value }
        #expect(order.withLock { $0 } == ["staff page", "sign-in", "decoy 1", "decoy 2"])
        #expect(gate.typicalSignIn > .zero)
    }
}
