import OperatorConsole
import Synchronization

/// The station's latest scan from any source, with its source and timing, for the "test the
/// scanner" screen. Written by every scan source as it submits; read at any time.
public final class LastScan: Sendable {
    private let value = Mutex<ScannerDiagnostics?>(nil)

    public init() {}

    /// The latest scan, `nil` before the first.
    public var current: ScannerDiagnostics? { value.withLock { $0 } }

    func record(_ scan: ScannerDiagnostics) {
        value.withLock { $0 = scan }
    }
}
