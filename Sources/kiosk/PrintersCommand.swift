import ArgumentParser
import CheckInCore
import KioskStore
import PrintSpooler

struct PrintersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "printers",
        abstract: "List the CUPS queues with their state, reasons in plain words, and media.")

    @Option(name: .customLong("cups-server"), help: "CUPS server as host:port or socket path (default: $CUPS_SERVER, else the system's).")
    var cupsServer: String?

    @Flag(name: .long, help: "Print one JSON document on stdout.")
    var json = false

    func run() async throws {
        try await CommandOutput.run(json: json) {
            CommandOutput.bootstrapLogging()
            let printers: [PrinterStatus]
            do { printers = try await CupsClient(server: cupsServer).printers() } catch {
                throw CommandFailure(String(describing: error), exitCode: 69)
            }
            if json {
                CommandOutput.printJSON(["printers": .array(printers.map(\.json))])
            } else if printers.isEmpty {
                print("No printer queues. Add one with Kiosk/add-badge-printer.sh.")
            } else {
                for printer in printers {
                    let accepting = printer.acceptingJobs ? "" : ", not accepting jobs"
                    print("\(printer.queue): \(printer.state.rawValue)\(accepting), media \(printer.mediaDefault ?? "?")")
                    if let message = printer.operatorMessage { print("    \(Sanitized.text(message))") }
                }
            }
            return 0
        }
    }
}

extension PrinterStatus {
    var json: JSONValue {
        [
            "name": .string(queue), "state": .string(state.rawValue), "accepting": .bool(acceptingJobs),
            "reasons": .array(reasons.map(JSONValue.string)), "message": .string(message),
            "operator_message": .optional(operatorMessage),
            "media_default": .optional(mediaDefault), "media": .array(mediaSupported.map(JSONValue.string)),
            "device_uri": .optional(deviceURI),
        ]
    }
}
