import Foundation
import PrintSpooler
import Synchronization

/// A badge output for the door benchmark that can be unplugged on a schedule: while down, its
/// printer is unreachable (as CUPS reports a printer that does not answer) and a job sent to it
/// never finishes; otherwise everything goes to the real output underneath.
final class FaultInjectingOutput: BadgeOutput {
    let base: any BadgeOutput
    private let down = Mutex(false)

    init(_ base: any BadgeOutput) { self.base = base }

    func setDown(_ isDown: Bool) { down.withLock { $0 = isDown } }
    var isDown: Bool { down.withLock { $0 } }

    var queue: String { base.queue }

    func media(widthMM: Double, heightMM: Double) async throws(PrintError) -> String? {
        try await base.media(widthMM: widthMM, heightMM: heightMM)
    }

    func createJob(_ ticket: BadgeTicket) async throws(PrintError) -> Int {
        if isDown { throw .submitFailed("the printer does not answer") }
        return try await base.createJob(ticket)
    }

    func sendDocument(_ pdf: Data, jobID: Int, ticket: BadgeTicket) async throws(PrintError) {
        if isDown { throw .submitFailed("the printer does not answer") }
        try await base.sendDocument(pdf, jobID: jobID, ticket: ticket)
    }

    func jobStatus(_ jobID: Int) async throws(PrintError) -> JobStatus? {
        try await base.jobStatus(jobID)
    }

    func printerAnswer(for ticket: BadgeTicket) async -> PrinterJobAnswer {
        await base.printerAnswer(for: ticket)
    }

    func printerStatus(probeDevice: Bool) async throws(PrintError) -> PrinterStatus {
        if isDown {
            return PrinterStatus(queue: queue, state: .idle, message: "The printer may not exist or is unavailable at this time.",
                                 device: DeviceStatus(reachable: false))
        }
        return try await base.printerStatus(probeDevice: probeDevice)
    }

    func cancel(_ jobID: Int) async { await base.cancel(jobID) }
}
