import ArgumentParser
import BadgePrint
import CheckInCore
import Foundation
import KioskStore
import PrintSpooler

/// `kiosk bench print`: render + submit, and time to confirmed "printed", next to `lp`
/// submitting the same PDF and `lpstat` polled for its completion, in the same run.
struct BenchPrintCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "print",
        abstract: "Benchmark badge printing against lp + lpstat on the same queue (use a test queue: it prints!).")

    @Option(help: "CUPS queue to print on (e.g. one of Kiosk/cups-test-rig.sh).")
    var printer: String

    @Option(name: .customLong("cups-server"), help: "CUPS server as host:port (default: $CUPS_SERVER).")
    var cupsServer: String?

    @Option(help: "Badges rendered and submitted.")
    var count = 50

    @Option(help: "Badges followed to confirmed printed, on each side.")
    var confirmations = 10

    @Flag(help: "Print one JSON document.")
    var json = false

    func run() async throws {
        CommandOutput.bootstrapLogging()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-bench-print-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: directory) }
        let data = directory.appendingPathComponent("data")
        let database = try KioskDatabase.open(dataDirectory: data, key: .besideThrowawayStore(data))
        try await database.roster.saveAccessType(AccessType(id: "vip", name: "VIP"))
        let guest = Guest(id: "bench", code: TicketCode(stored: "BENCH-0001"), name: "José Müller-Ødegård", company: "ACME", accessTypeID: "vip")
        try await database.roster.saveGuest(guest)
        let details = try database.roster.guest(id: "bench")!
        let cups = CupsClient(server: cupsServer)
        let template = BadgeTemplate()
        let content = BadgeContent(guest: guest, accessTypeName: "VIP")
        let media = try await cups.media(queue: printer, widthMM: template.widthMM, heightMM: template.heightMM) ?? template.media
        let renderer = BadgeRenderer()
        _ = try renderer.pdf(content, template: template)   // warm up fonts

        var renderMs: [Double] = [], submitMs: [Double] = []
        for index in 0..<count {
            let start = ContinuousClock.now
            let pdf = try renderer.pdf(BadgeContent(name: "\(guest.name) \(index)", company: "ACME", accessTypeID: "vip", accessTypeName: "VIP", code: "BENCH-\(index)"), template: template)
            let rendered = ContinuousClock.now
            _ = try await cups.submit(pdf: pdf, queue: printer, title: "bench \(index)", media: media)
            renderMs.append((rendered - start).milliseconds)
            submitMs.append((ContinuousClock.now - start).milliseconds)
        }
        let pdfFile = directory.appendingPathComponent("badge.pdf")
        try renderer.writePDF(content, template: template, to: pdfFile)
        var lpMs: [Double] = []
        var environment = ProcessInfo.processInfo.environment
        if let cupsServer { environment["CUPS_SERVER"] = cupsServer }
        for index in 0..<count {
            let start = ContinuousClock.now
            _ = try tool("lp", ["-d", printer, "-t", "lp \(index)", "-o", "media=\(media)", pdfFile.path], environment)
            lpMs.append((ContinuousClock.now - start).milliseconds)
        }
        try await drain(cups)

        let spooler = PrintSpooler(database: database, cups: cups, configuration: SpoolerConfiguration(
            queue: printer, timeout: .seconds(60), pollInterval: .milliseconds(100)))
        var confirmMs: [Double] = [], lpConfirmMs: [Double] = []
        var printed = 0
        for index in 0..<confirmations {
            let outcome = try await spooler.print(details, reprint: true)
            if outcome.state == .printed { printed += 1 }
            confirmMs.append(outcome.msFinal ?? 0)
            // Baseline: lp, then lpstat polled at the same interval until the job is completed.
            let start = ContinuousClock.now
            let output = try tool("lp", ["-d", printer, "-t", "lp confirm \(index)", "-o", "media=\(media)", pdfFile.path], environment)
            let id = output.split(separator: " ").first { $0.hasPrefix("\(printer)-") }.map(String.init) ?? ""
            while !(try tool("lpstat", ["-W", "completed", "-o", printer], environment)).split(separator: "\n").contains(where: { $0.hasPrefix(id + " ") }) {
                try await Task.sleep(for: .milliseconds(100))
                if ContinuousClock.now - start > .seconds(60) { break }
            }
            lpConfirmMs.append((ContinuousClock.now - start).milliseconds)
        }
        await spooler.shutdown()

        let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
        let names = ["p50", "p95"]
        let figures: JSONValue = [
            "queue": .string(printer), "badges": .int(count), "media": .string(media), "load_average": .string(load),
            "render_ms": Percentiles(renderMs).json(names), "render_submit_ms": Percentiles(submitMs).json(names),
            "baseline_lp_submit_ms": Percentiles(lpMs).json(names),
            "confirmed_ms": Percentiles(confirmMs).json(names), "confirmed_printed": .int(printed),
            "baseline_lp_lpstat_confirmed_ms": Percentiles(lpConfirmMs).json(names),
        ]
        if json {
            CommandOutput.printJSON(figures)
        } else {
            print("Badge printing on \(printer) (media \(media)), load average \(load)")
            print("  render (\(count)):                \(Percentiles(renderMs).text) ms")
            print("  render + submit (\(count)):       \(Percentiles(submitMs).text) ms")
            print("  baseline lp submit (\(count)):    \(Percentiles(lpMs).text) ms")
            print("  to confirmed printed (\(confirmations)):  \(Percentiles(confirmMs).text) ms (\(printed) printed)")
            print("  baseline lp + lpstat poll (\(confirmations)): \(Percentiles(lpConfirmMs).text) ms")
        }
    }

    /// Waits until the queue has no pending jobs, so confirmation times start from an idle printer.
    private func drain(_ cups: CupsClient) async throws {
        let start = ContinuousClock.now
        while ContinuousClock.now - start < .seconds(300) {
            let status = try await cups.printerStatus(queue: printer)
            if status.state == .idle { return }
            try await Task.sleep(for: .milliseconds(200))
        }
    }

    private func tool(_ name: String, _ arguments: [String], _ environment: [String: String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [name] + arguments
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
