/// The printer as it answers for itself (IPP Get-Printer-Attributes at its device URI).
public struct DeviceStatus: Sendable, Hashable {
    /// It answered at all.
    public var reachable: Bool
    public var state: PrinterStatus.State
    public var reasons: [String]
    public var message: String

    public init(reachable: Bool, state: PrinterStatus.State = .unknown, reasons: [String] = [], message: String = "") {
        self.reachable = reachable
        self.state = state
        self.reasons = reasons
        self.message = message
    }
}

extension PrinterStatus {
    /// The printer's condition for the door staff: every CUPS reason mapped to plain words and a
    /// fix, a `printer-state-message` that reports a failure with no reason ("Filter failed") as a
    /// fault, and the printer's own answer when it was asked directly.
    ///
    /// The printer's current state decides, not what cupsd remembers: when the printer answered
    /// for itself, its paper, cover and jam are its own reasons, not the queue's (cupsd keeps a
    /// backend's reasons until the queue's next job, so an out-of-labels from before a new roll
    /// stays there). And only an error stops the badges: a `-warning` or `-report` is shown with
    /// its fix, and the next badge is sent anyway (``PrinterReason``).
    public var health: PrinterHealth {
        if !acceptingJobs {
            return .fault(PrinterFault(kind: .notAccepting, words: "Badge printer queue \(queue) is not accepting jobs",
                                       fix: "ask support to enable it (cupsaccept \(queue))"))
        }
        let printer = currentDeviceReasons
        func worst(_ keywords: Set<String>) -> PrinterReason? {
            let matching = printer.filter { keywords.contains($0.keyword) }
            return matching.first(where: \.blocks) ?? matching.first
        }
        if let reason = worst(["media-empty", "media-needed"]) {
            return .fault(reason.blocks
                ? PrinterFault(kind: .outOfLabels, words: "Badge printer is out of labels", fix: "load a new roll")
                : PrinterFault(kind: .outOfLabels, words: "Badge printer reports out of labels",
                               fix: "load a new roll if it is empty; badges are still sent", blocksPrinting: false))
        }
        if let reason = worst(["media-jam"]) {
            return .fault(reason.blocks
                ? PrinterFault(kind: .jammed, words: "Labels are jammed in the badge printer", fix: "open it and clear the jam")
                : PrinterFault(kind: .jammed, words: "Badge printer reports a label jam",
                               fix: "clear it if labels are stuck; badges are still sent", blocksPrinting: false))
        }
        if let reason = worst(["door-open", "cover-open"]) {
            return .fault(reason.blocks
                ? PrinterFault(kind: .coverOpen, words: "Badge printer cover is open", fix: "close it")
                : PrinterFault(kind: .coverOpen, words: "Badge printer reports its cover open",
                               fix: "close it if it is open; badges are still sent", blocksPrinting: false))
        }
        if deviceUnreachable {
            return .fault(PrinterFault(kind: .printerUnreachable, words: "Badge printer is not reachable", fix: "check its power and cable"))
        }
        if state == .stopped || baseReasons.contains("paused") {
            let why = message.isEmpty ? "" : " (\(message))"
            return .fault(PrinterFault(kind: .paused, words: "Badge printing is paused\(why)", fix: "resume the queue (cupsenable \(queue))"))
        }
        if let reason = worst(["other"]) {
            let said = [message, device?.message ?? ""].first { Self.reportsFailure($0) } ?? message
            return .fault(PrinterFault(kind: .printerError, words: "Badge printer reports an error\(said.isEmpty ? "" : ": \(said)")",
                                       fix: "check the printer's display, then switch it off and on"
                                            + (reason.blocks ? "" : "; badges are still sent"), blocksPrinting: reason.blocks))
        }
        // cupsd keeps the message of the last job until the next one: a failure said only in words
        // is shown, but does not stop the next badge (which is how the message clears).
        // (cupsd's "may not exist" about a printer that has since answered is old news.)
        if Self.reportsFailure(message) && !(device?.reachable == true && printerUnreachable) {
            return .fault(PrinterFault(kind: .printerError, words: "Badge printer reported \"\(message)\"",
                                       fix: "check the printer queue (kiosk printers); the next badge is sent anyway",
                                       blocksPrinting: false))
        }
        return state == .processing ? .busy : .ready
    }

    /// What a person must do before the printer can go on with a job it has, in the door
    /// staff's words: load labels, clear a jam, close the cover (whatever the reason's severity:
    /// a printer holding a job says so as a warning too). `nil` when nothing of the kind is reported.
    public var waitsForPerson: PrinterFault? {
        let keywords = Set(currentDeviceReasons.filter { $0.severity != .report }.map(\.keyword))
        if !keywords.isDisjoint(with: ["media-empty", "media-needed"]) {
            return PrinterFault(kind: .outOfLabels, words: "Badge printer is out of labels", fix: "load a new roll")
        }
        if keywords.contains("media-jam") {
            return PrinterFault(kind: .jammed, words: "Labels are jammed in the badge printer", fix: "open it and clear the jam")
        }
        if !keywords.isDisjoint(with: ["door-open", "cover-open"]) {
            return PrinterFault(kind: .coverOpen, words: "Badge printer cover is open", fix: "close it")
        }
        return nil
    }

    /// The printer's paper, cover, jam and error reasons as they are now: its own, when it
    /// answered for itself (IPP), else as cupsd relays them.
    var currentDeviceReasons: [PrinterReason] {
        if let device, device.reachable, device.state != .unknown {
            return PrinterReason.parse(device.reasons).filter(\.isDeviceCondition)
        }
        return PrinterReason.parse(reasons).filter(\.isDeviceCondition)
    }

    /// The printer does not answer: asked directly when it could be, else as cupsd last heard it
    /// (an offline printer produces no state reason, only cupsd's message while a job tries).
    var deviceUnreachable: Bool {
        if let device { return !device.reachable }
        return printerUnreachable
    }

    /// Whether a printer-state-message says something failed. cupsd also uses the message for
    /// progress ("Waiting for job to complete.", "Idle.", "Sending data to printer."), which is not
    /// a fault.
    static func reportsFailure(_ message: String) -> Bool {
        let text = message.lowercased()
        return ["fail", "error", "unable", "cannot", "can't", "not ", "unavailable", "offline", "stopped", "abort", "cancel"]
            .contains { text.contains($0) }
    }
}

extension PrintError {
    /// The health of a printer whose status could not be read.
    public var health: PrinterHealth {
        switch self {
        case .serverUnreachable:
            .fault(PrinterFault(kind: .serverUnreachable, words: "The print server does not answer",
                                fix: "check that CUPS runs (systemctl status cups), or CUPS_SERVER"))
        case .noSuchQueue(let queue):
            .fault(PrinterFault(kind: .noSuchQueue, words: "There is no printer queue named \(queue)",
                                fix: "add it with Kiosk/add-badge-printer.sh, or list them with kiosk printers"))
        case .notAccepting(let queue):
            .fault(PrinterFault(kind: .notAccepting, words: "Badge printer queue \(queue) is not accepting jobs",
                                fix: "ask support to enable it (cupsaccept \(queue))"))
        case .outputUnwritable(let path):
            .fault(PrinterFault(kind: .folderUnwritable, words: "The badge folder \(path) cannot be written",
                                fix: "check its permissions and free disk space"))
        case .submitFailed(let detail), .ipp(let detail):
            .fault(PrinterFault(kind: .printerError, words: "The print server reported \"\(detail)\"", fix: "check the printer queue (kiosk printers)"))
        case .alreadyPrinted, .nothingToReprint, .noOtherPrinter:
            .ready
        }
    }
}
