import PrintSpooler
import Testing

/// What CUPS reports, in the operator's words, and which conditions make "completed" unproven.
@Suite("printer state in plain words")
struct PrinterStatusTests {
    @Test("printer-state-reasons and queue states become operator messages", arguments: [
        (["media-empty-error", "media-needed-warning"], PrinterStatus.State.processing, true, "", "out of labels"),
        (["paused"], .stopped, true, "Lunch", "paused (Lunch)"),
        (["none"], .idle, false, "", "not accepting jobs"),
        (["none"], .processing, true, "The printer may not exist or is unavailable at this time.", "not reachable"),
        (["media-jam-error"], .processing, true, "", "jammed"),
        (["cups-ipp-missing-job-history"], .idle, true, "", "lost track"),
        (["other-error"], .processing, true, "Head too hot", "error: Head too hot"),
    ])
    func messages(_ sample: ([String], PrinterStatus.State, Bool, String, String)) {
        let status = PrinterStatus(queue: "badge", state: sample.1, reasons: sample.0, message: sample.3, acceptingJobs: sample.2)
        #expect(status.operatorMessage?.contains(sample.4) == true, "\(status.operatorMessage ?? "nil")")
    }

    @Test("lost job history and an unreachable printer are faults; a paused queue or low labels are not")
    func faults() {
        #expect(PrinterStatus(queue: "q", state: .idle, reasons: ["cups-ipp-missing-job-history"]).fault == "cups-ipp-missing-job-history")
        #expect(PrinterStatus(queue: "q", state: .processing, message: "The printer may not exist or is unavailable at this time.").fault == "offline")
        #expect(PrinterStatus(queue: "q", state: .stopped, reasons: ["paused"]).fault == nil)
        #expect(PrinterStatus(queue: "q", state: .idle, reasons: ["media-low-report", "cups-waiting-for-job-completed"]).fault == nil)
        #expect(PrinterStatus(queue: "q", state: .idle, reasons: ["none"]).operatorMessage == nil)
    }
}
