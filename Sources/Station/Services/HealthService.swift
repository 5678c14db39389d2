import CheckInCore
import Foundation
import KioskStore
import ServiceLifecycle

/// What no other service reports by itself: the clock (a box whose clock was set back, or that
/// learns from the hub it is a day off), the pending counts without a hub, and a heartbeat of
/// the health file so `kiosk status` knows the station is alive.
struct HealthService: Service {
    let runtime: StationRuntime
    let database: KioskDatabase
    var interval: Duration = .seconds(5)

    func run() async throws {
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            let clock = (try? database.clockState()) ?? .plausible
            runtime.updateHealth {
                $0.clock = clock
                // The 12-hour warning comes with time, not with a change of the session.
                $0.session = SessionHealth.judge(endsAt: $0.session.endsAt, now: .now())
            }
            runtime.writeHealthFile()
            await runtime.publishSyncState()
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
        }
    }
}
