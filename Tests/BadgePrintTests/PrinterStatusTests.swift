import PrintTestSupport
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

    @Test("every reason maps to a fault kind, in words for the door staff with the fix", arguments: [
        (["media-empty-error"], PrinterStatus.State.idle, true, "", PrinterFault.Kind.outOfLabels, "Badge printer is out of labels: load a new roll"),
        (["media-needed"], .idle, true, "", .outOfLabels, "Badge printer is out of labels: load a new roll"),
        (["media-jam-error"], .stopped, true, "", .jammed, "Labels are jammed in the badge printer: open it and clear the jam"),
        (["cover-open-error"], .idle, true, "", .coverOpen, "Badge printer cover is open: close it"),
        (["door-open"], .idle, true, "", .coverOpen, "Badge printer cover is open: close it"),
        (["paused"], .stopped, true, "Lunch", .paused, "Badge printing is paused (Lunch): resume the queue (cupsenable badge)"),
        (["none"], .stopped, true, "Filter failed", .paused, "Badge printing is paused (Filter failed): resume the queue (cupsenable badge)"),
        (["none"], .idle, false, "", .notAccepting, "Badge printer queue badge is not accepting jobs: ask support to enable it (cupsaccept badge)"),
        (["none"], .processing, true, "The printer may not exist or is unavailable at this time.", .printerUnreachable,
         "Badge printer is not reachable: check its power and cable"),
        (["offline-report"], .idle, true, "", .printerUnreachable, "Badge printer is not reachable: check its power and cable"),
        (["other-error"], .idle, true, "Head too hot", .printerError, "Badge printer reports an error: Head too hot: check the printer's display, then switch it off and on"),
    ])
    func faultKinds(_ sample: ([String], PrinterStatus.State, Bool, String, PrinterFault.Kind, String)) {
        let status = PrinterStatus(queue: "badge", state: sample.1, reasons: sample.0, message: sample.3, acceptingJobs: sample.2)
        let fault = status.health.fault
        #expect(fault?.kind == sample.4)
        #expect(fault?.sentence == sample.5)
        #expect(fault?.blocksPrinting == true)
        #expect(!status.health.canPrint)
    }

    @Test("a -warning or -report reason is shown with its fix but stops no badge", arguments: [
        (["media-empty-warning", "media-needed-warning"], PrinterFault.Kind.outOfLabels,
         "Badge printer reports out of labels: load a new roll if it is empty; badges are still sent"),
        (["media-jam-report"], .jammed, "Badge printer reports a label jam: clear it if labels are stuck; badges are still sent"),
        (["cover-open-report"], .coverOpen, "Badge printer reports its cover open: close it if it is open; badges are still sent"),
        (["door-open-warning"], .coverOpen, "Badge printer reports its cover open: close it if it is open; badges are still sent"),
    ])
    func warningsInform(_ sample: ([String], PrinterFault.Kind, String)) {
        let status = PrinterStatus(queue: "badge", state: .idle, reasons: sample.0)
        let fault = status.health.fault
        #expect(fault?.kind == sample.1)
        #expect(fault?.sentence == sample.2)
        #expect(fault?.blocksPrinting == false)
        #expect(status.health.canPrint)
    }

    @Test("the printer answering for itself decides: cupsd's out-of-labels kept from before a new roll is ignored, the printer's own is not")
    func printerOverQueue() {
        let reloaded = PrinterStatus(queue: "badge", state: .idle, reasons: ["media-empty-warning", "media-needed-warning"],
                                     device: DeviceStatus(reachable: true, state: .idle, reasons: ["none"]))
        #expect(reloaded.health == .ready)
        let empty = PrinterStatus(queue: "badge", state: .idle, reasons: ["none"],
                                  device: DeviceStatus(reachable: true, state: .stopped, reasons: ["media-empty-error"]))
        #expect(empty.health.fault?.kind == .outOfLabels && empty.health.fault?.blocksPrinting == true)
        // A printer that cannot be asked (USB, or no IPP answer): cupsd's word, as a warning, informs.
        let usb = PrinterStatus(queue: "badge", state: .idle, reasons: ["media-empty-warning"], device: DeviceStatus(reachable: true))
        #expect(usb.health.canPrint && usb.health.fault?.kind == .outOfLabels)
        // cupsd's own queue states still count whatever the printer says.
        let paused = PrinterStatus(queue: "badge", state: .stopped, reasons: ["paused"], device: DeviceStatus(reachable: true, state: .idle))
        #expect(paused.health.fault?.kind == .paused)
    }

    @Test("a printer holding a job says what a person must do, whatever the severity; a report asks for nothing")
    func waitsForPerson() {
        #expect(PrinterStatus(queue: "q", state: .processing, reasons: ["media-empty-warning"]).waitsForPerson?.sentence
                == "Badge printer is out of labels: load a new roll")
        #expect(PrinterStatus(queue: "q", state: .processing, reasons: ["media-jam-error"]).waitsForPerson?.kind == .jammed)
        #expect(PrinterStatus(queue: "q", state: .processing, reasons: ["cover-open-warning"]).waitsForPerson?.kind == .coverOpen)
        #expect(PrinterStatus(queue: "q", state: .processing, reasons: ["media-low-report", "media-empty-report"]).waitsForPerson == nil)
        #expect(PrinterStatus(queue: "q", state: .processing, reasons: ["none"]).waitsForPerson == nil)
    }

    @Test("a printer-state-message saying something failed, with no reason, is a fault that does not stop the next badge",
          arguments: ["Filter failed", "loadFilename failed: /var/spool/cups/d00002-001: unable to find trailer dictionary",
                      "Print job canceled at printer.", "Backend returned an error"])
    func messageOnly(_ message: String) {
        let status = PrinterStatus(queue: "badge", state: .idle, reasons: ["none"], message: message)
        let fault = status.health.fault
        #expect(fault?.kind == .printerError)
        #expect(fault?.words.contains(message) == true)
        #expect(fault?.blocksPrinting == false)
        #expect(status.health.canPrint)
    }

    @Test("progress messages are not faults", arguments: ["", "Idle.", "Waiting for job to complete.", "Sending data to printer.", "Ready to print."])
    func progressMessages(_ message: String) {
        #expect(PrinterStatus(queue: "badge", state: .idle, message: message).health == .ready)
        #expect(PrinterStatus(queue: "badge", state: .processing, message: message).health == .busy)
    }

    @Test("the printer asked directly wins over cupsd: gone while cupsd says idle, back while cupsd still says unreachable")
    func deviceProbe() {
        let gone = PrinterStatus(queue: "badge", state: .idle, device: DeviceStatus(reachable: false))
        #expect(gone.health.fault?.kind == .printerUnreachable)
        let back = PrinterStatus(queue: "badge", state: .idle, message: "The printer may not exist or is unavailable at this time.",
                                 device: DeviceStatus(reachable: true, state: .idle, message: "Idle."))
        #expect(back.health == .ready)
        let empty = PrinterStatus(queue: "badge", state: .idle, device: DeviceStatus(reachable: true, state: .stopped, reasons: ["media-empty-error"]))
        #expect(empty.health.fault?.kind == .outOfLabels)
    }

    @Test("a status that cannot be read is a fault too", arguments: [
        (PrintError.serverUnreachable("127.0.0.1:631"), PrinterFault.Kind.serverUnreachable),
        (.noSuchQueue("badge"), .noSuchQueue),
        (.outputUnwritable("/var/lib/kiosk/badges"), .folderUnwritable),
    ])
    func unreadable(_ sample: (PrintError, PrinterFault.Kind)) {
        #expect(sample.0.health.fault?.kind == sample.1)
        #expect(sample.0.health.canPrint == false)
    }
}
