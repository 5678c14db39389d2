import OperatorConsole
import Synchronization

extension StationRuntime {
    /// A code from a scanner or the camera: kept as the ``lastScan`` (which input, how fast its
    /// keys came) and queued as a presentation, recorded as the source says (scanner or camera).
    /// The `scan` event follows when the flow takes it. While the console's scanner test is
    /// open, the scan is only kept for it: testing a scanner checks nobody in.
    public nonisolated func submitScan(_ scan: ScannerDiagnostics) {
        lastScan.record(scan)
        guard !scannerTest.withLock({ $0 }) else { return }
        // A pretix device QR code is never a ticket: it connects a station being set up.
        if takeHandshake(scan.code) { return }
        submit(Presentation(.code(scan.code), source: scan.source.checkInSource, at: scan.at))
    }

    /// Opens or closes the scanner test (the console's screen).
    public nonisolated func setScannerTest(_ open: Bool) {
        scannerTest.withLock { $0 = open }
    }
}
