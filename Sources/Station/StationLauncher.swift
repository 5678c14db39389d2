import CheckInCore
import Foundation
import KioskStore
import Logging
import OperatorConsole
import RosterCSV

/// How `kiosk run` is to be started: everything the command line and the configuration file
/// decided, plus the adapters this build provides for cameras, CUPS queues and the hub.
public struct LaunchOptions: Sendable {
    public var dataDirectory: URL
    public var migrations: [Migration] = Migration.embedded
    public var configuration = StationConfiguration()
    public var headless = false
    /// Import the demo roster when the roster is empty and no hub is configured.
    public var demoRoster = true
    /// Decodes `--frames` input (QR area), if built in.
    public var frameDecoder: (any FrameDecoder)?
    /// Opens `--frames FILE|-` as a scan source (QR area's pipeline), if built in; preferred over ``frameDecoder``.
    public var openFrames: (@Sendable (_ path: String, _ width: Int, _ height: Int) throws -> any ScanSource)?
    /// Opens a camera device as a scan source (QR area), if built in.
    public var openCamera: (@Sendable (_ device: String, _ width: Int, _ height: Int) throws -> any ScanSource)?
    /// Opens a CUPS queue as a badge printer (badge area), if built in.
    public var openPrinterQueue: (@Sendable (_ queue: String, _ template: String?, _ database: KioskDatabase) throws -> any BadgePrinter)?
    /// Renders badge PDFs for the PDF-folder printer (badge area), if built in.
    public var renderPDF: (@Sendable (BadgeContent) throws -> Data)?
    /// Connects to a hub (sync area), if built in.
    public var connectHub: (@Sendable (_ url: String, _ database: KioskDatabase) async throws -> any SyncService)?
    /// When the process started, for the start-up figure of the ready event.
    public var processStart = ContinuousClock.now

    public init(dataDirectory: URL) { self.dataDirectory = dataDirectory }
}

/// The composition root: migrations → configuration → session → services, then the run until
/// quit or SIGTERM/SIGINT.
public enum StationLauncher {
    /// Exit status when storage did not start (the diagnostic was shown).
    public static let storageUnavailableStatus: Int32 = 75

    /// Runs the station; returns the process exit status.
    public static func run(_ options: LaunchOptions, logger: Logger = Logger(label: "kiosk.run")) async throws -> Int32 {
        // 1. Storage: migrations run before anything else.
        let database = try KioskDatabase.open(dataDirectory: options.dataDirectory, migrations: options.migrations, logger: logger)
        var configuration = options.configuration
        var headless = options.headless
        if !headless && !CursesTerminal.isAvailable {
            FileHandle.standardError.write(Data("kiosk run: no terminal on stdin/stdout: running headless (one JSON line per event).\n".utf8))
            headless = true
        }
        if !headless && configuration.frames == "-" {
            FileHandle.standardError.write(Data("kiosk run: --frames - reads stdin, which the console needs: running headless.\n".utf8))
            headless = true
        }

        guard database.storage.isUsable else {
            return await runDiagnostic(database: database, headless: headless, pin: configuration.selfServicePIN)
        }
        let storage = try database.status()

        // 2. Configuration into the station's settings.
        if let name = configuration.stationName { try await database.setSetting(.stationName, name) }
        if let name = configuration.operatorName { try await database.setSetting(.operatorName, name) }

        // 3. Session: the hub, or the embedded default with the demo roster.
        let sync: any SyncService
        if let hub = try configuration.hubURL ?? database.setting(.hubURL) {
            guard let connect = options.connectHub else {
                throw StationError.notBuiltIn("This kiosk was built without hub sync: remove --hub (and hub = … from the configuration) to run on the local roster.")
            }
            sync = try await connect(hub, database)
        } else {
            sync = NoHub(database: database)
            if options.demoRoster, storage.guests == 0 {
                let summary = try await database.importRoster(try RosterCSVParser.parse(Data(DemoRoster.csv.utf8)))
                logger.notice("imported the demo roster: \(summary.imported) guests")
            }
        }

        // Guests a stopped download or import left unindexed: searchable by scan until indexed.
        database.indexSearchInBackground()

        // 4. Services: printer, scan source, flow, sync loop, user interface.
        let printer = try makePrinter(configuration, options: options, database: database)
        let runtime = StationRuntime(database: database, printer: printer, sync: sync, policy: configuration.printPolicy,
                                     operatorName: configuration.operatorName)
        var services: [any StationService] = [FlowService(runtime: runtime)]
        let scanning: String
        if let source = try makeScanSource(&configuration, options: options, headless: headless) {
            scanning = source.description
            // A pipe or file ends the run at its end (tests, `cat codes | kiosk run`); a device never ends.
            let stopAtEnd = headless && (configuration.frames != nil || standardInputIsFinite)
            services.append(ScanService(source: source, runtime: runtime, stopAtEnd: stopAtEnd, logger: logger))
        } else {
            scanning = "keyboard"
        }
        services.append(SyncLoopService(runtime: runtime))
        let camera = scanning == "keyboard" ? "no camera — type codes with F3" : "scanning: \(scanning)"
        if headless {
            services.append(HeadlessService(runtime: runtime))
        } else {
            var model = ConsoleModel(pin: configuration.selfServicePIN, selfService: configuration.selfService)
            if case .updated(let from, let to) = storage.storage { model.banner = "Storage updated v\(from) → v\(to)" }
            services.append(ConsoleService(runtime: runtime, model: model, camera: camera))
        }
        // Counting 100k guests again costs ~10 ms: only after the demo import did the count change.
        let guests = storage.guests > 0 ? storage.guests : ((try? database.status(consumeNotice: false).guests) ?? 0)
        runtime.emit(.ready(guests: guests, startupMilliseconds: (ContinuousClock.now - options.processStart).seconds * 1000,
                            scanning: scanning, printer: printer.name))
        await ServiceRunner(services: services, logger: logger).run()
        await runtime.finish()
        return 0
    }

    /// Standard input is a pipe or a regular file (not a terminal, not /dev/null).
    static var standardInputIsFinite: Bool {
        var info = stat()
        guard fstat(STDIN_FILENO, &info) == 0 else { return false }
        let type = info.st_mode & S_IFMT
        return type == S_IFIFO || type == S_IFREG
    }

    static func makePrinter(_ configuration: StationConfiguration, options: LaunchOptions, database: KioskDatabase) throws -> any BadgePrinter {
        switch configuration.printer {
        case nil:
            return PDFFolderPrinter(folder: database.dataDirectory.appendingPathComponent("badges"), render: options.renderPDF)
        case "none"?:
            return NoBadgePrinter()
        case let value? where value.hasPrefix("pdf:"):
            let path = String(value.dropFirst(4))
            return PDFFolderPrinter(folder: URL(fileURLWithPath: path.isEmpty ? database.dataDirectory.appendingPathComponent("badges").path : path),
                                    render: options.renderPDF)
        case let queue?:
            guard let open = options.openPrinterQueue else {
                throw StationError.notBuiltIn("This kiosk was built without CUPS printing: use --printer pdf:DIR or --printer none.")
            }
            return try open(queue, configuration.badgeTemplate, database)
        }
    }

    static func makeScanSource(_ configuration: inout StationConfiguration, options: LaunchOptions, headless: Bool) throws -> (any ScanSource)? {
        if let frames = configuration.frames {
            if let open = options.openFrames { return try open(frames, configuration.frameWidth, configuration.frameHeight) }
            guard let decoder = options.frameDecoder else {
                throw StationError.notBuiltIn("This kiosk was built without QR decoding: type codes instead of --frames.")
            }
            return RawFrameSource(path: frames, width: configuration.frameWidth, height: configuration.frameHeight, decoder: decoder)
        }
        if let device = configuration.camera {
            guard let open = options.openCamera else {
                throw StationError.notBuiltIn("This kiosk was built without camera support: type codes instead of --camera.")
            }
            return try open(device, configuration.frameWidth, configuration.frameHeight)
        }
        // Headless with no camera: a keyboard-wedge scanner (or a pipe) types codes on stdin.
        return headless ? LineCodeSource() : nil
    }

    /// Storage did not start: show which migration failed and what is kept, never scan.
    static func runDiagnostic(database: KioskDatabase, headless: Bool, pin: String?) async -> Int32 {
        let status = try? database.status(consumeNotice: false)
        let event = StationEvent.storageUnavailable(database.storage, pending: status?.pending ?? 0, guests: status?.guests ?? 0)
        FileHandle.standardError.write(Data("kiosk run: \(database.storage.message)\n".utf8))
        if headless {
            FileHandle.standardOutput.write(Data((event.json.serialized + "\n").utf8))
            return storageUnavailableStatus
        }
        let runtime = StationRuntime(database: database, printer: NoBadgePrinter(), sync: NoHub(database: database), policy: .onRequest)
        var model = ConsoleModel(pin: pin)
        if case .storageUnavailable(let state, let pending, let guests) = event {
            var migration: String?
            if case .migrationFailed(let name, _) = state { migration = name }
            if case .checksumMismatch(let name) = state { migration = name }
            model.showDiagnostic(StorageDiagnostic(migration: migration, error: state.message, pendingCheckIns: pending, guests: guests))
        }
        await ServiceRunner(services: [ConsoleService(runtime: runtime, model: model, camera: "not scanning")]).run()
        return storageUnavailableStatus
    }
}
