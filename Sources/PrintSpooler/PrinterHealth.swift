/// What the door staff need to know about a badge printer: it is ready, it is printing, or it has
/// a fault, said in plain words with the fix.
///
/// ```swift
/// switch health {
/// case .ready, .busy: statusLine.printer = health.words
/// case .fault(let fault): statusLine.alert("\(fault.words): \(fault.fix)")   // "Out of labels: load a new roll"
/// }
/// ```
public enum PrinterHealth: Sendable, Hashable {
    case ready
    /// Printing (a job is out).
    case busy
    case fault(PrinterFault)

    /// Whether a badge can be sent now. A fault that only shows a message (a "Filter failed" left
    /// from an earlier job) does not stop the next badge: sending one is how it clears.
    public var canPrint: Bool {
        switch self {
        case .ready, .busy: true
        case .fault(let fault): !fault.blocksPrinting
        }
    }

    /// The printer's condition in a few words, for the status line.
    public var words: String {
        switch self {
        case .ready: "Printer ready"
        case .busy: "Printing"
        case .fault(let fault): fault.words
        }
    }

    public var fault: PrinterFault? {
        if case .fault(let fault) = self { return fault }
        return nil
    }
}

/// A printer fault: what it is, in the door staff's words, and what fixes it.
public struct PrinterFault: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case outOfLabels = "out_of_labels"
        case jammed
        case coverOpen = "cover_open"
        /// The queue is paused (cupsdisable) or stopped by CUPS after errors.
        case paused
        /// The queue refuses new jobs (cupsreject).
        case notAccepting = "not_accepting"
        /// The printer itself does not answer: off, unplugged, or no network.
        case printerUnreachable = "printer_unreachable"
        /// The print server (cupsd) does not answer.
        case serverUnreachable = "server_unreachable"
        case noSuchQueue = "no_such_queue"
        /// The printer or the print server reported an error in a message only ("Filter failed").
        case printerError = "printer_error"
        /// The badge folder of a PDF output cannot be written.
        case folderUnwritable = "folder_unwritable"
    }

    public var kind: Kind
    /// What is wrong, e.g. "Badge printer is out of labels".
    public var words: String
    /// What fixes it, e.g. "load a new roll".
    public var fix: String
    /// No badge can be sent until it is fixed (jobs are held meanwhile).
    public var blocksPrinting: Bool

    public init(kind: Kind, words: String, fix: String, blocksPrinting: Bool = true) {
        self.kind = kind
        self.words = words
        self.fix = fix
        self.blocksPrinting = blocksPrinting
    }

    /// "Badge printer is out of labels: load a new roll".
    public var sentence: String { "\(words): \(fix)" }
}
