/// Failures talking to CUPS or refusing a print, each saying what the operator should do.
public enum PrintError: Error, Sendable, Equatable, CustomStringConvertible {
    /// cupsd does not answer.
    case serverUnreachable(String)
    /// The queue does not exist.
    case noSuchQueue(String)
    /// The queue refuses new jobs (cupsreject).
    case notAccepting(String)
    /// CUPS refused the job or the document.
    case submitFailed(String)
    /// Any other IPP failure.
    case ipp(String)
    /// A PDF output's folder cannot be written.
    case outputUnwritable(String)
    /// The event prints each badge once: a second badge needs a reprint by an operator.
    case alreadyPrinted(jobID: Int64)
    /// There is no badge to reprint.
    case nothingToReprint
    /// "Print on the other printer" was asked, and the station has no second printer.
    case noOtherPrinter

    public var description: String {
        switch self {
        case .serverUnreachable(let detail): "Cannot reach the print server (\(detail)): check that CUPS runs, or CUPS_SERVER."
        case .noSuchQueue(let queue): "There is no printer queue named \(queue): list them with `kiosk printers`."
        case .notAccepting(let queue): "Badge printer queue \(queue) is not accepting jobs: ask support to enable it (cupsaccept \(queue))."
        case .submitFailed(let detail): "The print server refused the badge (\(detail)). Retry, or check the printer queue."
        case .ipp(let detail): "Print server error: \(detail)."
        case .outputUnwritable(let path): "Cannot write badges into \(path): check its permissions and free disk space."
        case .alreadyPrinted(let id): "This guest's badge was already printed (job \(id)): use reprint, which is logged."
        case .nothingToReprint: "There is no badge to reprint yet."
        case .noOtherPrinter: "There is no second badge printer: print the badges on this one, or cancel them."
        }
    }

    /// A short machine-readable reason for JSON output.
    public var reasonCode: String {
        switch self {
        case .serverUnreachable: "server_unreachable"
        case .noSuchQueue: "no_such_queue"
        case .notAccepting: "not_accepting_jobs"
        case .submitFailed: "submit_failed"
        case .ipp: "ipp_error"
        case .outputUnwritable: "output_unwritable"
        case .alreadyPrinted: "already_printed"
        case .nothingToReprint: "nothing_to_reprint"
        case .noOtherPrinter: "no_other_printer"
        }
    }
}
