import ArgumentParser
import BadgePrint
import CheckInCore
import Foundation
import KioskStore
import PrintSpooler

/// Options shared by the printing commands: which CUPS server and queues, templates, timeout.
struct PrinterOptions: ParsableArguments {
    @Option(name: .customLong("cups-server"), help: "CUPS server as host:port or socket path (default: $CUPS_SERVER, else the system's).")
    var cupsServer: String?

    @Option(help: "A second queue for badges that fail or time out on the first.")
    var failover: String?

    @Option(help: "Seconds to wait for the printer before the job needs attention (default: the station setting, else 20).")
    var timeout: Double?

    @Option(name: .customLong("templates"), help: "Folder of badge templates (default.json, <access-type>.json); default: <data-dir>/badges.")
    var templatesDirectory: String?

    func templates(dataDirectory: URL) throws -> BadgeTemplates {
        let folder = templatesDirectory.map { URL(fileURLWithPath: $0) } ?? dataDirectory.appendingPathComponent("badges")
        do { return try BadgeTemplates.load(from: folder) } catch {
            throw CommandFailure(error.description, exitCode: ExitStatus.badInput)
        }
    }

    func configuration(queue: String, database: KioskDatabase) throws -> SpoolerConfiguration {
        let storedTimeout = try database.printJobs.printSetting("timeout_seconds").flatMap(Double.init)
        let seconds = timeout ?? storedTimeout ?? 20
        let policy = try database.printJobs.printSetting("policy").flatMap(PrintPolicy.init(configured:)) ?? .onAdmission
        return SpoolerConfiguration(
            queue: queue, failoverQueue: try failover ?? database.printJobs.printSetting("failover_queue"),
            timeout: .milliseconds(Int64(seconds * 1000)), policy: policy)
    }
}

/// Exit statuses of `kiosk badge` besides 0 (printed or rendered).
enum BadgeExit {
    static func status(_ state: BadgeState) -> Int32 {
        switch state {
        case .printed: 0
        case .unconfirmed, .mayHavePrinted: 20
        case .needsAttention, .queued, .submitted, .printing: 21
        case .failed, .canceled: 22
        }
    }
}

struct BadgeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "badge",
        abstract: "Print a guest's badge and wait until it really printed, or render it to PDF/PNG.",
        discussion: """
            With --printer the command follows the job until CUPS and the printer say it printed. \
            Exit status: 0 printed (or rendered), 20 unconfirmed (completed, but the printer reported a \
            fault: check the badge), 21 needs attention (no printer could take it now, or it timed out; \
            the reason says why, and the station's print queue prints it when a printer is back), \
            22 failed, 12 unknown ticket code, 65 bad template.
            """)

    @Argument(help: "The guest's ticket code.")
    var code: String

    @Option(help: "CUPS queue to print on.")
    var printer: String?

    @Option(help: "Write the badge as a PDF file instead of printing.")
    var pdf: String?

    @Option(help: "Write the badge as a PNG picture instead of printing.")
    var png: String?

    @Flag(help: "Print again although the guest has a badge (required under the print-once policy; logged).")
    var reprint = false

    @Option(help: "Operator asking for the badge (recorded with reprints).")
    var `operator`: String?

    @OptionGroup var printerOptions: PrinterOptions
    @OptionGroup var options: StationOptions

    func validate() throws {
        guard [printer, pdf, png].compactMap({ $0 }).count == 1 else {
            throw ValidationError("give exactly one of --printer QUEUE, --pdf OUT.pdf or --png OUT.png")
        }
        if let timeout = printerOptions.timeout, timeout <= 0 { throw ValidationError("--timeout must be positive") }
    }

    func run() async throws {
        try await CommandOutput.run(json: options.json) {
            let database = try options.openDatabase()
            try database.requireUsableForCommand()
            guard let guest = try database.roster.guest(code: code) else {
                throw CommandFailure("Ticket not recognized: no guest has code \(Sanitized.text(code))", exitCode: 12)
            }
            let templates = try printerOptions.templates(dataDirectory: options.dataDirectoryURL)
            let content = BadgeContent(guest: guest.guest, accessTypeName: guest.accessTypeName)
            if let output = pdf ?? png {
                return try render(content, templates: templates, to: output)
            }
            let spooler = PrintSpooler(
                database: database, cups: CupsClient(server: printerOptions.cupsServer),
                templates: templates, configuration: try printerOptions.configuration(queue: printer ?? "", database: database))
            let messages = Task {
                for await update in spooler.updates where !options.json {
                    if let message = update.operatorMessage { CommandOutput.printError(Sanitized.text(message)) }
                }
            }
            defer { messages.cancel() }
            let outcome: PrintOutcome
            do {
                outcome = try await spooler.print(guest, requestedBy: `operator` ?? "", reprint: reprint)
            } catch let error as PrintError {
                throw CommandFailure(error.description, exitCode: 22)
            } catch let error as BadgeError {
                throw CommandFailure(error.description, exitCode: ExitStatus.badInput)
            }
            await spooler.shutdown()
            if options.json {
                CommandOutput.printJSON(outcome.json)
            } else {
                print(outcome.sentence)
            }
            return BadgeExit.status(outcome.state)
        }
    }

    private func render(_ content: BadgeContent, templates: BadgeTemplates, to output: String) throws -> Int32 {
        let template = templates.template(forAccessType: content.accessTypeID)
        let url = URL(fileURLWithPath: output)
        let started = ContinuousClock.now
        do {
            if pdf != nil {
                try BadgeRenderer().writePDF(content, template: template, to: url)
            } else {
                try BadgeRenderer().writePNG(content, template: template, to: url)
            }
        } catch {
            throw CommandFailure(error.description, exitCode: ExitStatus.badInput)
        }
        let ms = (ContinuousClock.now - started) / .milliseconds(1)
        if options.json {
            CommandOutput.printJSON([
                "job": .null, "state": "rendered", "reason": .null, "ms_submit": .null, "ms_final": .double(ms),
                "output": .string(url.path), "media": .string(template.media),
                "width_mm": .double(template.widthMM), "height_mm": .double(template.heightMM),
            ])
        } else {
            print("Badge written to \(url.path) (\(template.widthMM)×\(template.heightMM) mm, media \(template.media))")
        }
        return 0
    }
}

extension PrintOutcome {
    var json: JSONValue {
        [
            "job": .int(Int(jobID)), "state": .string(state.rawValue), "reason": .optional(reason),
            "ms_submit": msSubmit.map(JSONValue.double) ?? .null, "ms_final": msFinal.map(JSONValue.double) ?? .null,
            "output": .string(queue), "queue": .string(queue), "cups_job": cupsJobID.map(JSONValue.int) ?? .null,
        ]
    }

    var sentence: String {
        switch state {
        case .printed: "Badge printed on \(queue) (job \(jobID))"
        case .unconfirmed: "Badge not confirmed: \(reason ?? "check the printer") (job \(jobID))"
        case .needsAttention: "Badge needs attention: \(reason ?? "check the printer") (job \(jobID))"
        default: "Badge \(state.rawValue): \(reason ?? "") (job \(jobID))"
        }
    }
}
