import OperatorConsole

extension StationRuntime {
    /// A code from a scanner or the camera: kept as the ``lastScan`` (which input, how fast its
    /// keys came) and queued as a presentation, recorded as the source says (scanner or camera).
    /// The `scan` event follows when the flow takes it.
    public nonisolated func submitScan(_ scan: ScannerDiagnostics) {
        lastScan.record(scan)
        submit(Presentation(.code(scan.code), source: scan.source.checkInSource, at: scan.at))
    }
}
