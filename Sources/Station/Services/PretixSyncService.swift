import KioskStore
import Logging
import PretixSync
import ServiceLifecycle

/// A station connected to pretix (`kiosk pretix connect`): sends its check-ins to pretix and
/// downloads the orders changed since, every few seconds, so another device's check-in and an
/// order placed a minute ago are known here quickly. The door never waits for it: a pretix that
/// is down or slow only delays this loop (backing off to 30 s), and what is queued stays queued.
struct PretixSyncService: Service {
    let sync: PretixSync
    let runtime: StationRuntime
    var interval: Duration = .seconds(3)
    let logger: Logger

    func run() async throws {
        var failures = 0
        let list = sync.link.listName
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            do {
                _ = try await sync.push()
                _ = try await sync.pull()
                if failures > 0 { logger.notice("pretix answers again") }
                failures = 0
                runtime.updateHealth { $0.hub = .pretix(list: list, reason: nil) }
            } catch where error.isDeviceRevoked {
                // The organizer revoked the device (or the box was reported lost): the guest data goes now.
                let words = (try? await sync.end(.revokedInPretix)) ?? "pretix revoked this station's device."
                logger.warning("pretix revoked this device; the event's guest data was removed")
                runtime.updateHealth { $0.hub = .pretixRevoked }
                runtime.emit(.notice(words, action: "pretix_revoked"))
                await runtime.publishSyncState()
                return
            } catch {
                failures += 1
                if failures == 1 || !error.isTransient {
                    logger.warning("pretix sync failed; the station keeps working and tries again", metadata: ["error": "\(error.description)"])
                }
                runtime.updateHealth { $0.hub = .pretix(list: list, reason: error.description) }
            }
            await runtime.publishSyncState()
            let wait = failures == 0 ? interval : min(.seconds(30), interval * (1 << min(failures, 4)))
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: wait) }
        }
    }
}
