import CheckInCore
import KioskStore
import OperatorConsole

/// The embedded default: no hub. Check-ins stay in the outbox until a hub is configured.
public struct NoHub: SyncService {
    let database: KioskDatabase

    public init(database: KioskDatabase) { self.database = database }

    public func status() async -> SyncStatus { SyncStatus(online: false, description: "no hub") }

    public func syncNow() async -> String {
        "No hub configured: check-ins stay on this station (kiosk signin --hub URL to connect)"
    }

    public func signOut(_ choice: PendingChangesChoice) async -> String {
        let pending = (try? database.status(consumeNotice: false).pending) ?? 0
        return "Not signed in to a hub; \(pending) pending check-in(s) stay on this station"
    }

    public func run() async throws {
        // Nothing to do; wait for shutdown.
        while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
    }
}
