import CheckInCore
import RosterSync
import ServiceLifecycle

/// Follows the sync engine's status: the hub's state into the station's health, pending
/// counts to the user interface.
struct HubWatchService: Service {
    let engine: SyncEngine
    let runtime: StationRuntime
    /// No hub was ever named to this station: until a sign-in it is stand-alone.
    var standAlone = false

    func run() async throws {
        let initial = await engine.status()
        runtime.updateHealth {
            $0.hub = HubHealth(initial, standAlone: standAlone)
            $0.session = SessionHealth.judge(endsAt: initial.sessionEndsAt, now: .now())
        }
        for await status in engine.statusUpdates.cancelOnGracefulShutdown() {
            // Connected to pretix while running (a scanned device QR code): pretix's state is the station's now.
            if runtime.pretix != nil { continue }
            runtime.updateHealth {
                $0.hub = HubHealth(status, standAlone: standAlone && status.state == .notConfigured)
                $0.session = SessionHealth.judge(endsAt: status.sessionEndsAt, now: .now())
            }
            await runtime.publishSyncState()
        }
        try? await gracefulShutdown()
    }
}
