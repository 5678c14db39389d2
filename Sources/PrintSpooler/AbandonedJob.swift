/// What became of a badge the station gave up on (its try timed out and was canceled): whether
/// it may be sent again, here or on the other printer, without the badge coming out twice.
///
/// Canceling in CUPS does not take a badge back from a printer that already has it: the
/// simulator of a printer out of labels, canceled at the print server, printed the badge as soon
/// as a new roll was in, and a hung printer's badge may come out when it wakes. So a badge the
/// printer had is sent again only on the operator's word (``PrintJobState/mayHavePrinted``), and
/// only the printer's own "I never had it" (or "I aborted it") frees it.
enum AbandonedJob: Sendable, Equatable {
    /// The printer never had it: it may be sent again, here or elsewhere.
    case neverPrinted
    /// The printer says it printed it (it finished just before the cancel).
    case printed
    /// The printer had it and cannot say it did not print: it may have, or still may.
    case mayHavePrinted

    /// - Parameters:
    ///   - reachedPrinter: the print server had started sending it (CUPS `processing`); a job
    ///     still pending there never left the station's machine.
    ///   - answer: what the printer itself says about the job after the cancel.
    static func judge(reachedPrinter: Bool, answer: PrinterJobAnswer) -> AbandonedJob {
        guard reachedPrinter else { return .neverPrinted }
        switch answer {
        case .noRecord, .ended(.aborted): return .neverPrinted
        case .ended(.completed): return .printed
        case .cannotAsk, .unreachable, .ended: return .mayHavePrinted
        }
    }

    /// The operator's words for a badge that may have come out on `queue`.
    static func reason(queue: String, why: String) -> String {
        "May already have printed on \(queue): the station gave up on it (\(why)) after the printer took it. "
            + "Check the printer's tray; print it again only if it is not there"
    }
}
