import GRDB
/// Where a badge job is, as `print_jobs.state` stores it. The stored strings are a contract with
/// every database written so far: a case may be added, never renamed.
public enum PrintJobState: String, Sendable, Hashable, Codable, CaseIterable {
    /// Written with the check-in (or by a reprint); the print queue has not sent it yet.
    case queued
    /// No printer can take it now; it prints, in order, when one is ready again.
    case held
    /// The printer's queue has it (the CUPS job id is recorded before the document is sent).
    case submitted
    /// The printer is working on it.
    case printing
    /// The printer confirmed it and reported no fault while it was out.
    case printed
    /// The printer said "completed" but reported a fault while the job was out (or forgot the
    /// job): the badge may not exist. Final, offered for reprint.
    case unconfirmed
    /// The printer refused or aborted it every time it was tried.
    case failed
    /// An operator canceled it.
    case canceled
    /// It waited longer than the station allows: the operator decides whether it still prints.
    case awaitingOperator = "awaiting_operator"
    /// The station gave up on it after the printer took it (timed out, canceled in CUPS): it may
    /// have come out, or still come out. Never sent again by itself, not on the other printer
    /// either: the operator, told it is a possible duplicate, decides.
    case mayHavePrinted = "may_have_printed"

    /// The queue is done with the job.
    public var isFinal: Bool {
        switch self {
        case .printed, .unconfirmed, .failed, .canceled: true
        case .queued, .held, .submitted, .printing, .awaitingOperator, .mayHavePrinted: false
        }
    }

    /// The job waits for the operator's word (print it, on the other printer, or cancel it).
    public var waitsForOperator: Bool { self == .awaitingOperator || self == .mayHavePrinted }

    /// The stored states of jobs that wait for the operator's word.
    static let waitingForOperatorSQL = "'awaiting_operator', 'may_have_printed'"

    /// The guest has a badge or one is on its way: what "print once" counts. An unconfirmed
    /// badge counts too (it probably came out; an operator reprints it when it did not).
    public var givesBadge: Bool { self != .failed && self != .canceled }

    /// The stored state of a row. `needs_attention` is the old spooler's timed-out state
    /// (migration 0006 rewrites such rows; a row written since cannot have it): a job that reached
    /// CUPS is followed again, one that never did goes back to the queue.
    init(stored: String, reachedPrinter: Bool) {
        if let state = PrintJobState(rawValue: stored) {
            self = state
        } else {
            self = reachedPrinter ? .submitted : .queued
        }
    }
}

extension PrintJobStore {
    /// How many badge jobs are in `state`.
    public func printJobCount(_ state: PrintJobState) async throws(StoreError) -> Int {
        try await wrap {
            try await writer.read { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM print_jobs WHERE state = ?", arguments: [state.rawValue]) ?? 0
            }
        }
    }
}
