import CheckInCore
import OperatorConsole
import ServiceLifecycle

/// Feeds a scan source (camera frames, scanner lines, a dedicated scanner) into the flow, each
/// code kept as the runtime's last scan, and the camera's and scanner's health into the station's.
struct ScanService: Service {
    let source: any ScanSource
    let runtime: StationRuntime
    /// Whether the end of the source stops the station (`--frames FILE` headless: the run is the file).
    let stopAtEnd: Bool

    func run() async throws {
        for await input in source.inputs().cancelOnGracefulShutdown() {
            switch input {
            case .code(let payload, let source):
                let device = self.source.description
                runtime.submitScan(ScannerDiagnostics(code: payload, source: source == .camera ? .camera(device) : .lines(device)))
            case .scan(let scan):
                runtime.submitScan(scan)
            case .unreadable:
                runtime.emit(.unreadable)
            case .camera(let camera):
                runtime.updateHealth { $0.camera = camera }
            case .scanner(let scanner):
                runtime.updateHealth { $0.scanner = scanner }
            case .answered(let code, let answers):
                runtime.submit(Presentation(.code(code), source: .typed, at: .now(), answers: answers))
            }
        }
        if stopAtEnd {
            // Let the flow finish what was submitted before the station stops.
            while await runtime.isBusy && !Task.isCancelled { try await Task.sleep(for: .milliseconds(20)) }
            return
        }
        try await gracefulShutdown()
    }
}
