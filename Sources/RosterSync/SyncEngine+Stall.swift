import Logging
import Synchronization

/// What a scan after a stall was decided on (``SyncEngine/catchUpAfterStall(budget:)``).
public enum RosterCatchUp: Sendable, Equatable {
    /// No stall since the last pull: the roster is as current as the follow request keeps it.
    case current
    /// The station had stood still; one pull brought the roster up to date first.
    case caughtUp(stalled: Duration)
    /// The station had stood still and the hub did not answer within the budget (or is
    /// offline): the scan is decided on the roster from before the stall.
    case notCaughtUp(stalled: Duration)
}

extension SyncEngine {
    /// Beats every ``StallWatch/heartbeat`` while the engine runs, so a stall is seen when the
    /// station runs again.
    func heartbeatLoop() async {
        while !Task.isCancelled {
            stallWatch.beat(at: .now)
            try? await Task.sleep(for: StallWatch.heartbeat)
        }
    }

    /// Before a scan is decided: after a stall (audit C11: a station resumed from `SIGSTOP`
    /// admitted a guest another door had admitted during the stop), waits for one pull, at most
    /// `budget`. Without a stall, or offline, it returns at once. A pull still running when the
    /// budget ends goes on in the background.
    public func catchUpAfterStall(budget: Duration) async -> RosterCatchUp {
        stallWatch.beat(at: .now)
        guard let stall = stallWatch.stall else { return .current }
        // Only the first scan after a stall waits, and not when the hub cannot be asked now
        // (offline, signed out, or it asked for quiet).
        let quiet = quietUntil.map { $0 > .now } ?? false
        guard client != nil, session?.signedOut == false, refusal == nil, !quiet, monitor.state != .offline else {
            stallWatch.settled()
            return .notCaughtUp(stalled: stall.length)
        }
        let pull = Task {
            var report = SyncReport()
            try await self.exclusivePull(into: &report, progress: nil)
        }
        // Whichever comes first: the pull's end or the budget's. A task group would wait for both.
        let pulled = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let answer = FirstAnswer(continuation)
            Task { answer.give((try? await pull.value) != nil) }
            Task {
                try? await Task.sleep(for: budget)
                answer.give(false)
            }
        }
        if pulled, !stallWatch.needsPull {
            logger.info("caught up with the hub after a stall before deciding", metadata: ["stalled": "\(stall.length)"])
            return .caughtUp(stalled: stall.length)
        }
        stallWatch.settled()
        logger.notice("decided on the roster from before a stall: the hub did not answer in time",
                      metadata: ["stalled": "\(stall.length)", "budget": "\(budget)"])
        return .notCaughtUp(stalled: stall.length)
    }
}

/// Resumes a continuation with the first answer given; later ones are dropped.
private final class FirstAnswer: Sendable {
    private let continuation: Mutex<CheckedContinuation<Bool, Never>?>

    init(_ continuation: CheckedContinuation<Bool, Never>) {
        self.continuation = Mutex(continuation)
    }

    func give(_ answer: Bool) {
        continuation.withLock { waiting in
            waiting?.resume(returning: answer)
            waiting = nil
        }
    }
}
