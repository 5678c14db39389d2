import KioskStore
import SyncSchedule

/// The hub as the station's roster source, driven by the station's one sync loop (``SyncLoop``)
/// on ``SyncSchedule``: every interval a pull, a push and the station's health report; a
/// recorded change pushed at once; backoff after failures; the hub's `Retry-After` honoured.
/// While the follow loop holds its long-poll the pulls are its own, and the interval only
/// pushes and reports.
extension SyncEngine: RosterSource {
    /// The loop's schedule, from the engine's configuration.
    public nonisolated var schedule: SyncSchedule<ContinuousClock.Instant>.Configuration {
        .init(pullInterval: configuration.pullInterval, backoff: configuration.retrySchedule.steps)
    }

    public func isFollowing() -> Bool { following }

    public func pullRound() async -> SyncRound {
        if let quiet = quietRemaining { return .answered(.tooMany(retryAfter: quiet)) }
        reloadSessionIfNeeded()
        var report = SyncReport()
        do throws(SyncError) {
            try await exclusivePull(into: &report, progress: nil)
            return .answered(.ok)
        } catch {
            return await failed(error)
        }
    }

    public func pushRound() async -> SyncRound {
        if let quiet = quietRemaining { return .answered(.tooMany(retryAfter: quiet)) }
        reloadSessionIfNeeded()
        var report = SyncReport()
        do throws(SyncError) {
            try await exclusivePush(into: &report, progress: nil)
            await recordOutcome(nil)
            return .answered(.ok)
        } catch {
            return await failed(error)
        }
    }

    public func reportRound() async {
        await sendStationReport(pending: (try? database.outbox.pendingCount()) ?? 0)
    }

    /// How long the hub asked to be left alone still (`429 Retry-After`, to either loop).
    var quietRemaining: Duration? {
        guard let quietUntil, quietUntil > .now else { return nil }
        return ContinuousClock.now.duration(to: quietUntil)
    }

    /// A failed round as the operator sees it and as the schedule reads it: nothing to do until
    /// someone signs in or picks an event, the quiet the hub asked for, or a failure to back off from.
    func failed(_ error: SyncError) async -> SyncRound {
        await recordOutcome(error)
        if error.isWaitingForSomeone { return .answered(.waiting) }
        if let seconds = retryAfterSeconds {
            retryAfterSeconds = nil
            return .answered(.tooMany(retryAfter: .seconds(seconds)))
        }
        if let quiet = quietRemaining { return .answered(.tooMany(retryAfter: quiet)) }
        return .answered(.failed)
    }
}
