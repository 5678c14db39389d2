import CheckInCore
import KioskStore
import Logging
import PretixSync
import ServiceLifecycle
import SyncSchedule

/// A station connected to pretix (`kiosk pretix connect`): sends its check-ins to pretix as soon
/// as they are recorded and downloads the orders changed since every few seconds, so another
/// device's check-in and an order placed a minute ago are known here quickly. When to do what is
/// ``SyncSchedule``'s (a pure value: the interval, the backoff after failures, pretix's
/// `Retry-After`); this service only carries its actions out. The door never waits for it: a
/// pretix that is down or slow only delays this loop, and what is queued stays queued.
///
/// On a station that is no pretix device yet, the service waits for one to be made while the
/// station runs (a pretix device QR code scanned at set-up) and then syncs it.
struct PretixSyncService: Service {
    /// The station's pretix link; `nil`: wait for one.
    let sync: PretixSync?
    let runtime: StationRuntime
    var interval: Duration = .seconds(3)
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
        let list = sync.link.listName
        var schedule = SyncSchedule(configuration: .init(pullInterval: interval), now: ContinuousClock.now)
        var actions = schedule.tick(now: .now)
        var failing = false
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            guard let action = actions.first else {
                actions = schedule.tick(now: .now)
                continue
            }
            actions.removeFirst()
            switch action {
            case .pull, .push:
                do throws(PretixSyncError) {
                    if action == .pull { _ = try await sync.pull() } else { _ = try await sync.push() }
                    if failing { logger.notice("pretix answers again") }
                    failing = false
                    runtime.updateHealth { $0.hub = .pretix(list: list, reason: nil) }
                    actions = schedule.answered(.ok, now: .now)
                } catch where error.isDeviceRevoked {
                    // The organizer revoked the device (or the box was reported lost): the guest data goes now.
                    let words = (try? await sync.end(.revokedInPretix)) ?? "pretix revoked this station's device."
                    logger.warning("pretix revoked this device; the event's guest data was removed")
                    runtime.updateHealth { $0.hub = .pretixRevoked }
                    runtime.emit(.notice(words, action: "pretix_revoked"))
                    await runtime.publishSyncState()
                    return
                } catch {
                    if !failing || !error.isTransient {
                        logger.warning("pretix sync failed; the station keeps working and tries again", metadata: ["error": "\(error.description)"])
                    }
                    failing = true
                    runtime.updateHealth { $0.hub = .pretix(list: list, reason: error.description) }
                    actions = schedule.answered(Self.answer(error), now: .now)
                }
                await runtime.publishSyncState()
            case .report:
                break
            case .sleep(let until):
                let nudged = await sync.wakeup.sleep(until: until)
                actions = nudged ? schedule.nudge(now: .now) : schedule.tick(now: .now)
            }
        }
    }

    /// A failed round as the schedule reads it: pretix's `Retry-After`, or a failure to back off from.
    static func answer(_ error: PretixSyncError) -> SyncSchedule<ContinuousClock.Instant>.Answer {
        if let seconds = error.retryAfterSeconds { return .tooMany(retryAfter: .seconds(seconds)) }
        return .failed
    }
}
