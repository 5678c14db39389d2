import CheckInCore
import ArgumentParser
import Foundation
import KioskStore
import Station

/// `kiosk run`: the station. Full-screen console on a terminal, one JSON line per event headless.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Start here: run the check-in station (operator console; JSON event lines with --headless).",
        discussion: """
            With no hub and no printer configured, the station imports a demo roster into an empty \
            data directory, writes badges as PDF files into <data-dir>/badges, and takes codes from \
            the keyboard. Stops cleanly on SIGTERM/SIGINT. Exit status 75: storage did not start \
            (the diagnostic says which migration failed; contact support).
            """)

    @OptionGroup var options: StationOptions

    @Option(help: "Configuration file (key = value; see Kiosk/kiosk.conf.example). Command-line options win.")
    var config: String?

    @Option(help: "Camera device, e.g. /dev/video0 or /dev/kiosk-camera.")
    var camera: String?

    @Option(help: "Raw 8-bit grayscale frames to decode: a file, or - for stdin.")
    var frames: String?

    @Option(name: .customLong("frame-size"), help: "Frame size WxH for --frames and --camera (default 640x480).")
    var frameSize: String?

    @Option(help: "Badge printer: a CUPS queue, pdf:DIR for a folder of PDFs, or none.")
    var printer: String?

    @Option(help: "Hub URL to sync with.")
    var hub: String?

    @OptionGroup var trust: HubTrustOptions

    @Option(name: .customLong("print-policy"), help: "When to print a badge: on_admission, once, walk_ins_only, on_request.")
    var printPolicy: String?

    @Flag(help: "No console: one JSON line per event on stdout (also used when there is no terminal).")
    var headless = false

    @Flag(name: .customLong("self-service"), help: "Start in self-service mode (needs self_service_pin in the configuration).")
    var selfService = false

    @Flag(name: .customLong("no-demo"), help: "Do not import the demo roster into an empty data directory.")
    var noDemo = false

    func validate() throws {
        if let frameSize, StationConfiguration.frameSize(frameSize) == nil { throw ValidationError("--frame-size must look like 640x480") }
        if let printPolicy, PrintPolicy(configured: printPolicy) == nil {
            throw ValidationError("--print-policy must be one of \(PrintPolicy.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if camera != nil && frames != nil { throw ValidationError("use either --camera or --frames") }
    }

    func run() async throws {
        let processStart = ContinuousClock.now
        try await CommandOutput.run(json: false) {
            var launch = LaunchOptions(dataDirectory: options.dataDirectoryURL)
            launch.processStart = processStart
            if let override = ProcessInfo.processInfo.environment["KIOSK_MIGRATIONS_DIR"], !override.isEmpty {
                launch.migrations = try Migration.load(from: URL(fileURLWithPath: override))
            }
            do {
                var configuration = try config.map { try StationConfiguration.load(URL(fileURLWithPath: $0)) } ?? StationConfiguration()
                for warning in configuration.warnings { CommandOutput.printError("kiosk run: \(warning)") }
                if let camera { configuration.camera = camera; configuration.frames = nil }
                if let frames { configuration.frames = frames; configuration.camera = nil }
                if let frameSize, let size = StationConfiguration.frameSize(frameSize) { (configuration.frameWidth, configuration.frameHeight) = size }
                if let printer { configuration.printer = printer }
                if let hub { configuration.hubURL = hub }
                if let caFile = trust.caFile { configuration.caFile = caFile }
                if let keyFile = options.storageKeyFile { configuration.storageKeyFile = keyFile }
                if trust.allowInsecureHTTP { configuration.allowInsecureHTTP = true }
                if let printPolicy { configuration.printPolicy = PrintPolicy(configured: printPolicy) ?? .onAdmission }
                if selfService { configuration.selfService = true }
                launch.configuration = configuration
                launch.headless = headless
                launch.demoRoster = !noDemo
                return try await StationLauncher.run(launch)
            } catch let error as StationError {
                throw CommandFailure(error.description, exitCode: ExitStatus.badInput)
            }
        }
    }
}
