import CheckInCore
import KioskStore
import Logging
import PretixSync
import ServiceLifecycle
import Synchronization
import SyncSchedule

/// A station connected to pretix (`kiosk pretix connect`): sends its check-ins to pretix as soon
/// as they are recorded and downloads the orders changed since every few seconds, so another
/// device's check-in and an order placed a minute ago are known here quickly. It is the
/// station's one sync loop (``SyncLoop``, the hub's too) at pretix as a ``RosterSource``: when to
/// do what is ``SyncSchedule``'s (the interval, the backoff after failures, pretix's
/// `Retry-After`). The door never waits for it: a pretix that is down or slow only delays this
/// loop, and what is queued stays queued.
///
/// On a station that is no pretix device yet, the service waits for one to be made while the
/// station runs (a pretix device QR code scanned at set-up) and then syncs it.
struct PretixSyncService: Service {
    /// The station's pretix link; `nil`: wait for one.
    let sync: PretixSync?
    let runtime: StationRuntime
    /// How often orders are pulled between check-ins (`sync_interval_seconds`); nil: every 3 s.
    var interval: Duration? = nil
    let logger: Logger

    func run() async throws {
        var linked = sync
        if linked == nil {
            for await made in runtime.pretixConnected.cancelOnGracefulShutdown() {
                linked = made
                break
            }
        }
        guard let sync = linked else { return }
        await cancelWhenGracefulShutdown {
            await SyncLoop.run(PretixSource(sync: sync, runtime: runtime, logger: logger), configuration: .init(pullInterval: interval ?? .seconds(3)))
        }
    }
}

/// The station's pretix list as its roster source: each round's outcome on the station's
/// health (the console's status line) and log, a device revoked in pretix ending the loop with
/// the event's guest data removed.
final class PretixSource: RosterSource, Sendable {
    let sync: PretixSync
    let runtime: StationRuntime
    let logger: Logger
    /// The last round failed (logged once, until pretix answers again).
    private let failing = Mutex(false)

    init(sync: PretixSync, runtime: StationRuntime, logger: Logger) {
        self.sync = sync
        self.runtime = runtime
        self.logger = logger
    }

    var wakeup: SyncWakeup { sync.wakeup }

    func isFollowing() -> Bool { false }

    func pullRound() async -> SyncRound { await round { () async throws(PretixSyncError) in _ = try await sync.pull() } }

    func pushRound() async -> SyncRound { await round { () async throws(PretixSyncError) in _ = try await sync.push() } }

    func reportRound() async {}

    /// The round, then what the station shows of its sync (pending, last contact) brought up to date.
    private func round(_ body: () async throws(PretixSyncError) -> Void) async -> SyncRound {
        let outcome = await attempt(body)
        await runtime.publishSyncState()
        return outcome
    }

    private func attempt(_ body: () async throws(PretixSyncError) -> Void) async -> SyncRound {
        let list = sync.link.listName
        do {
            try await body()
            if failing.withLock({ $0 }) { logger.notice("pretix answers again") }
            failing.withLock { $0 = false }
            runtime.updateHealth { $0.hub = .pretix(list: list, reason: nil) }
            return .answered(.ok)
        } catch where error.isDeviceRevoked {
            // The organizer revoked the device (or the box was reported lost): the guest data goes now.
            let words = (try? await sync.end(.revokedInPretix)) ?? "pretix revoked this station's device."
            logger.warning("pretix revoked this device; the event's guest data was removed")
            runtime.updateHealth { $0.hub = .pretixRevoked }
            runtime.emit(.notice(words, action: "pretix_revoked"))
            return .ended
        } catch {
            let wasFailing = failing.withLock { state in defer { state = true }; return state }
            if !wasFailing || !error.isTransient {
                logger.warning("pretix sync failed; the station keeps working and tries again", metadata: ["error": "\(error.description)"])
            }
            runtime.updateHealth { $0.hub = .pretix(list: list, reason: error.description) }
            if let seconds = error.retryAfterSeconds { return .answered(.tooMany(retryAfter: .seconds(seconds))) }
            return .answered(.failed)
        }
    }
}
