import Foundation
import Synchronization

/// Badges written as PDF files into a folder (`--printer pdf:DIR`, and a station with no printer):
/// `badge-<job id>.pdf`, written atomically, and reported printed at once. The file name never
/// holds the ticket code (it admits its holder, and the folder may be shared for printing).
///
/// Badges carry guests' names: a written badge is deleted once it is older than ``retention``
/// (24 h by default, `pdf_retention_hours` in kiosk.conf; `nil` keeps them), checked at each write.
public struct PDFFolderOutput: BadgeOutput {
    public let folder: URL
    public let retention: Duration?

    public static let defaultRetention: Duration = .seconds(24 * 3_600)

    public init(folder: URL, retention: Duration? = PDFFolderOutput.defaultRetention) {
        self.folder = folder
        self.retention = retention
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
                    if Self.sweeps.due(folder.path, now: Date()) { Self.deleteBadges(in: folder, olderThan: retention, now: Date()) }
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

    /// A busy door writes a badge every few seconds and the folder holds a day of them: it is
    /// swept for old badges at the first write and then at most every ``SweepSchedule/interval``.
    static let sweeps = SweepSchedule()

    final class SweepSchedule: Sendable {
        static let interval: TimeInterval = 600
        private let last = Mutex([String: Date]())

        /// Whether `folder` is due a sweep now; if so, records it as swept.
        func due(_ folder: String, now: Date) -> Bool {
            last.withLock { last in
                if let previous = last[folder], now.timeIntervalSince(previous) < Self.interval { return false }
                last[folder] = now
                return true
            }
        }
    }

    /// Deletes this output's badge files (`badge-N.pdf`) written more than `retention` ago.
    static func deleteBadges(in folder: URL, olderThan retention: Duration?, now: Date) {
        guard let retention else { return }
        let limit = now.addingTimeInterval(-Double(retention.components.seconds))
        let files = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: [.contentModificationDateKey])) ?? []
        for file in files where file.lastPathComponent.hasPrefix("badge-") && file.pathExtension == "pdf" {
            guard let written = try? file.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate, written < limit else { continue }
            try? FileManager.default.removeItem(at: file)
        }
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
