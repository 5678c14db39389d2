import Foundation
import OperatorConsole
import ServiceLifecycle

/// Headless, signed in, no event chosen: the configuration's `event` is chosen and its roster
/// downloaded, the progress as notices on the headless log. Ends when the roster is here.
struct ConfiguredEventService: Service {
    let runtime: StationRuntime
    let event: String

    func run() async throws {
        let runtime = self.runtime
        await cancelWhenGracefulShutdown {
            await runtime.useEvent(event, name: event) { answer in
                switch answer {
                case .rosterReady(let event, let guests):
                    runtime.emit(.notice("\(event): \(guests) guest(s) on this station — ready to scan", action: "event"))
                case .downloadPaused(_, let problem), .eventRefused(let problem):
                    runtime.emit(.notice("Configured event \(event): \(problem)", action: "event"))
                default:
                    break
                }
            }
        }
    }
}
