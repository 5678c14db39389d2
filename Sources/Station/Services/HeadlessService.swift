import Foundation
import KioskStore
import ServiceLifecycle

/// `--headless`: one JSON line per event on stdout (journald), until the station has stopped.
struct HeadlessService: Service {
    let runtime: StationRuntime
    /// Whether guests' names go into the lines (``HeadlessNames``).
    var names = true

    func run() async throws {
        for await event in runtime.events {
            FileHandle.standardOutput.write(Data((event.json(names: names).serialized + "\n").utf8))
        }
        // The events end when the flow has stopped; this service stops last, when told.
        try? await gracefulShutdown()
    }
}
