import CheckInCore
import Foundation
import KioskStore
import OperatorConsole
import RosterSync
import Station

// Hub sync plugged into `kiosk run`: the SyncEngine (session from `kiosk signin`) as the
// station's SyncService; its loop runs as one of the station's services.

extension StationAdapters {
    static func installHubSync(into launch: inout LaunchOptions) {
        // Signed in with `kiosk signin`: sync with that hub even without --hub.
        if launch.configuration.hubURL == nil, let session = try? SessionFile(dataDirectory: launch.dataDirectory).load(), !session.signedOut {
            launch.configuration.hubURL = session.hubURL
        }
        launch.connectHub = { url, database in
            let engine = try SyncEngine(database: database)
            func trimmed(_ text: String) -> String { text.hasSuffix("/") ? String(text.dropLast()) : text }
            if let session = await engine.currentSession(), trimmed(session.hubURL) != trimmed(url) {
                throw StationError.unusableInput("This station is signed in to \(session.hubURL), not \(url): run kiosk signout, then kiosk signin --hub \(url).")
            }
            return EngineSyncService(engine: engine)
        }
    }
}

/// The ``SyncEngine`` as the station's ``SyncService``.
struct EngineSyncService: SyncService {
    let engine: SyncEngine

    func status() async -> Station.SyncStatus {
        let status = await engine.status()
        let words: String
        switch status.state {
        case .online: words = "hub"
        case .degraded: words = "hub slow, retrying"
        case .offline: words = "hub unreachable" + (status.lastError.map { ": \($0)" } ?? "")
        case .signedOut: words = "signed out — kiosk signin"
        case .notConfigured: words = "not signed in — kiosk signin"
        }
        return Station.SyncStatus(online: status.state == .online || status.state == .degraded, description: words)
    }

    func syncNow() async -> String {
        do {
            let report = try await engine.syncNow()
            return "Synced: \(report.guestsPulled) guest(s) pulled, \(report.accepted) check-in(s) uploaded, \(report.pending) pending"
        } catch {
            return "Sync failed: \(error.description)"
        }
    }

    func signOut(_ choice: PendingChangesChoice) async -> String {
        do {
            let discarded = try await engine.signOut(choice)
            return discarded > 0 ? "Signed out; \(discarded) pending change(s) discarded" : "Signed out"
        } catch {
            return "Not signed out: \(error.description)"
        }
    }

    func run() async throws {
        await engine.run()
    }
}
