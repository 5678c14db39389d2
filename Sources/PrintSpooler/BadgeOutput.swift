import Foundation

/// The printer behind one queue name: what the print queue needs to put a rendered badge on it
/// and to know whether it really came out.
///
/// ``CupsOutput`` is a CUPS queue, ``PDFFolderOutput`` writes files; tests script their own.
/// Calls may block on the printer: implementations keep that off Swift's cooperative pool.
public protocol BadgeOutput: Sendable {
    /// The name recorded with each job ("badge", "pdf:/var/lib/kiosk/badges").
    var queue: String { get }

    /// The output's own name for media of this size, so the badge is neither rotated nor shrunk;
    /// `nil` when it has none (the template's media name is sent).
    func media(widthMM: Double, heightMM: Double) async throws(PrintError) -> String?

    /// Allocates a job without its document, so its id is recorded before the document is sent
    /// (a crash in between then cannot print a badge twice).
    /// - Returns: the output's job id.
    func createJob(_ ticket: BadgeTicket) async throws(PrintError) -> Int

    /// Sends the rendered badge into a job made by ``createJob(_:)``.
    func sendDocument(_ pdf: Data, jobID: Int, ticket: BadgeTicket) async throws(PrintError)

    /// The job's state; `nil` when the output no longer knows the job.
    func jobStatus(_ jobID: Int) async throws(PrintError) -> JobStatus?

    /// What the printer itself says about the job: checked before a "completed" is believed.
    func printerAnswer(for ticket: BadgeTicket) async -> PrinterJobAnswer

    /// The printer's condition. `probeDevice`: ask the printer itself too (only while no job is
    /// out: the print server knows best then, and the probe may take a second when it is gone).
    func printerStatus(probeDevice: Bool) async throws(PrintError) -> PrinterStatus

    /// Cancels a job (before the badge is tried elsewhere, so it cannot come out twice).
    func cancel(_ jobID: Int) async
}

/// What a printer, asked directly, says about a job the print server calls completed.
public enum PrinterJobAnswer: Sendable, Hashable {
    /// The output cannot ask its printer (USB, dnssd, a PDF folder): the print server's word stands.
    case cannotAsk
    /// The printer does not answer: it may have died with the badge in it.
    case unreachable
    /// The printer answered and keeps no record of the job.
    case noRecord
    /// The printer's own state of the job.
    case ended(JobStatus.State)
}

/// What identifies a badge job to an output. The title never holds the ticket code: ticket codes
/// admit people, and CUPS shows job titles to every local user.
public struct BadgeTicket: Sendable, Hashable {
    /// The station's print job id (`print_jobs.id`).
    public var printJobID: Int64
    /// The output's media name for the badge's size.
    public var media: String

    public init(printJobID: Int64, media: String) {
        self.printJobID = printJobID
        self.media = media
    }

    /// "Badge job 12".
    public var title: String { "Badge job \(printJobID)" }
}
