import CheckInCore
import KioskStore
import Logging
import ServiceLifecycle

/// Purges the guest data of the station's event once it ended `retention` ago (`purge_after_days`),
/// checked at start and every hour: data the hub has, as at sign-out. Changes still waiting for
/// the hub stay. A station without a hub is never purged here (``KioskDatabase/purgeOnOperatorsWord()``).
/// The check at start is the launcher's, before it decides where the day starts; this service
/// checks every hour after.
struct RetentionService: Service {
    let database: KioskDatabase
    let retention: Duration
    let runtime: StationRuntime
    let logger: Logger

    func run() async throws {
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(3_600)) }
            guard !Task.isCancelled && !Task.isShuttingDownGracefully else { return }
            do {
                if case .purged(let event) = try await database.purgeIfEventEnded(retention: retention) {
                    runtime.emit(.notice("The guest data of \(event) was removed from this station: the event ended. Sign in to choose the next event.",
                                         action: "event_data_purged"))
                }
            } catch {
                logger.warning("could not purge the data of an ended event; trying again in an hour", metadata: ["error": "\(error)"])
            }
        }
    }
}
