import Foundation

/// Badges written as PDF files into a folder (`--printer pdf:DIR`, and a station with no printer):
/// `badge-<job id>.pdf`, written atomically, and reported printed at once. The file name never
/// holds the ticket code (it admits its holder, and the folder may be shared for printing).
public struct PDFFolderOutput: BadgeOutput {
    public let folder: URL

    public init(folder: URL) {
        self.folder = folder
    }

    public var queue: String { "pdf:\(folder.path)" }

    /// Where job `printJobID`'s badge is written.
    public func file(printJobID: Int64) -> URL {
        folder.appendingPathComponent("badge-\(printJobID).pdf")
    }

    public func media(widthMM: Double, heightMM: Double) async throws(PrintError) -> String? { nil }

    public func createJob(_ ticket: BadgeTicket) async throws(PrintError) -> Int {
        Int(ticket.printJobID)
    }

    public func sendDocument(_ pdf: Data, jobID: Int, ticket: BadgeTicket) async throws(PrintError) {
        let folder = self.folder, file = file(printJobID: ticket.printJobID)
        // File I/O blocks: off the cooperative pool, like every other output.
        let failure: String? = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                do {
                    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                    try pdf.write(to: file, options: .atomic)
                    continuation.resume(returning: nil)
                } catch {
                    continuation.resume(returning: (error as NSError).localizedDescription)
                }
            }
        }
        if failure != nil { throw .outputUnwritable(folder.path) }
    }

    /// Written is printed; a job whose file is missing (a crash before the write) was aborted, and
    /// the queue writes it again.
    public func jobStatus(_ jobID: Int) async throws(PrintError) -> JobStatus? {
        let written = FileManager.default.fileExists(atPath: file(printJobID: Int64(jobID)).path)
        return JobStatus(id: jobID, state: written ? .completed : .aborted)
    }

    public func printerAnswer(for ticket: BadgeTicket) async -> PrinterJobAnswer { .cannotAsk }

    public func printerStatus(probeDevice: Bool) async throws(PrintError) -> PrinterStatus {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory)
        if exists && (!isDirectory.boolValue || !FileManager.default.isWritableFile(atPath: folder.path)) {
            throw .outputUnwritable(folder.path)
        }
        return PrinterStatus(queue: queue, state: .idle)
    }

    public func cancel(_ jobID: Int) async {}
}
