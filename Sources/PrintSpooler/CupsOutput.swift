import Foundation

/// A CUPS queue as a ``BadgeOutput``.
/// ```swift
/// let output = CupsOutput(queue: "badge")                         // $CUPS_SERVER, else the system's
/// let spare = CupsOutput(queue: "spare", cups: CupsClient(server: "127.0.0.1:6310"))
/// ```
public struct CupsOutput: BadgeOutput {
    public let queue: String
    public let cups: CupsClient

    /// - Parameter cups: each output should have its own client: a client runs one libcups call
    ///   at a time, and one printer's slow answer must not delay the other's.
    public init(queue: String, cups: CupsClient = CupsClient()) {
        self.queue = queue
        self.cups = cups
    }

    public func media(widthMM: Double, heightMM: Double) async throws(PrintError) -> String? {
        try await cups.media(queue: queue, widthMM: widthMM, heightMM: heightMM)
    }

    public func createJob(_ ticket: BadgeTicket) async throws(PrintError) -> Int {
        try await cups.createJob(queue: queue, title: ticket.title, media: ticket.media)
    }

    public func sendDocument(_ pdf: Data, jobID: Int, ticket: BadgeTicket) async throws(PrintError) {
        try await cups.sendDocument(pdf, queue: queue, jobID: jobID)
    }

    public func jobStatus(_ jobID: Int) async throws(PrintError) -> JobStatus? {
        try await cups.jobStatus(queue: queue, id: jobID)
    }

    public func printerAnswer(for ticket: BadgeTicket) async -> PrinterJobAnswer {
        guard let uri = try? await cups.printerStatus(queue: queue).deviceURI else { return .cannotAsk }
        return await cups.deviceJobAnswer(uri: uri, title: ticket.title)
    }

    public func printerStatus(probeDevice: Bool) async throws(PrintError) -> PrinterStatus {
        var status = try await cups.printerStatus(queue: queue)
        if probeDevice, let uri = status.deviceURI {
            status.device = await cups.probeDevice(uri: uri)
        }
        return status
    }

    public func cancel(_ jobID: Int) async {
        await cups.cancel(queue: queue, id: jobID)
    }
}
