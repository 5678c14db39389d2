import CheckInCore
import Foundation
import HTTPTransport
import KioskStore
import Logging
import OperatorConsole
import PretixClient
import PretixSync
import RosterCSV
import RosterSync
import ServiceLifecycle
import UnixSignals

/// How `kiosk run` is to be started: what the command line and the configuration file decided.
public struct LaunchOptions: Sendable {
    public var dataDirectory: URL
    public var migrations: [Migration] = Migration.embedded
    public var configuration = StationConfiguration()
    public var headless = false
    /// Import the demo roster when the roster is empty and no hub is configured.
    public var demoRoster = true
    /// When the process started, for the start-up figure of the ready event.
    public var processStart = ContinuousClock.now

    public init(dataDirectory: URL) { self.dataDirectory = dataDirectory }
}

/// The composition root of `kiosk run`: storage (migrations before anything else), then the
/// configuration, the hub session, the print queue, the scan source and the user interface,
/// run as one `ServiceGroup` until the operator quits or SIGTERM/SIGINT/SIGHUP arrives.
///
/// Services start in dependency order and stop in reverse: the scan source first (nothing new
/// arrives), then the flow (what was submitted is decided), then sync and printing (their work
/// is durable rows that resume at the next start), the user interface last (it shows the end).
public enum StationLauncher {
    /// Exit status when storage did not start (the diagnostic was shown).
    public static let storageUnavailableStatus: Int32 = 75

    /// Runs the station; returns the process exit status.
    public static func run(_ options: LaunchOptions) async throws -> Int32 {
        // One station per data directory, before anything else touches it (its log file included).
        let lock = try StationLock.acquire(in: options.dataDirectory, command: StationLock.processCommand)
        defer { withExtendedLifetime(lock) {} }
        var configuration = options.configuration
        var headless = options.headless
        var fallbackReason: String?
        if !headless && !CursesTerminal.isAvailable {
            fallbackReason = "no terminal on stdin/stdout: running headless (one JSON line per event)."
            headless = true
        }
        if !headless && configuration.frames == "-" {
            fallbackReason = "--frames - reads stdin, which the console needs: running headless."
            headless = true
        }
        let logger = StationLogging.bootstrap(console: !headless, dataDirectory: options.dataDirectory)
        if let fallbackReason { FileHandle.standardError.write(Data("kiosk run: \(fallbackReason)\n".utf8)) }

        // 1. Storage: the key, then migrations, before anything else. A key on a removable
        // medium that is not plugged in is waited for.
        let open = { [configuration] () -> Result<KioskDatabase, StoreError> in
            Result { () throws(StoreError) in
                try KioskDatabase.open(dataDirectory: options.dataDirectory, migrations: options.migrations,
                                       key: .resolve(keyFile: configuration.storageKeyFile, dataDirectory: options.dataDirectory), logger: logger)
            }
        }
        var opened = open()
        if case .failure(.storageKey(.removableKeyAbsent(let path))) = opened {
            opened = await RemovableKeyWait.run(path: path, headless: headless, logger: logger, open: open)
        }
        if case .failure(.storageKey(let error)) = opened {
            return StorageKeyDiagnostic.show(error, headless: headless, logger: logger)
        }
        let database = try opened.get()
        guard database.storage.isUsable else {
            return try await runDiagnostic(database: database, headless: headless, pin: configuration.selfServicePIN, logger: logger)
        }
        let storage = try database.status()

        // An event that ended long enough ago leaves no guest data behind (purge_after_days).
        if let retention = configuration.purgeAfter,
           case .purged(let event) = try await database.purgeIfEventEnded(retention: retention) {
            logger.notice("purged the guest data of an ended event", metadata: ["event": "\(event)"])
        }

        // 2. Configuration into the station's settings.
        if let name = configuration.stationName { try await database.setSetting(.stationName, name) }
        if let name = configuration.operatorName { try await database.setSetting(.operatorName, name) }
        try await database.setSetting(.timeZone, configuration.timeZone)

        // 3. The hub session and where the day starts: the console signs in and picks the event
        // itself; headless without a hub, the embedded default with the demo roster.
        let session = try? SessionFile(database: database).load()
        // A station connected to pretix (`kiosk pretix connect`) syncs with pretix, not a hub.
        // An unreadable link keeps it a pretix station, working on its copy and saying so: never
        // a silent fall back to a hub or the demo roster while check-ins stop reaching pretix.
        let pretixLink = Result { () throws(PretixSyncError) in try PretixLinkFile<PretixLink>(database: database).load() }
        let pretix = (try? pretixLink.get())?.map { PretixSync(database: database, link: $0) }
        var pretixProblem: PretixSyncError?
        if case .failure(let problem) = pretixLink {
            pretixProblem = problem
            logger.error("the pretix connection cannot be read: not syncing", metadata: ["problem": "\(problem)"])
        }
        let pretixStation = pretix != nil || pretixProblem != nil
        let chosen = try? database.syncEvent()
        let facts = StationStart.Facts(
            signedInAs: session.flatMap { $0.signedOut ? nil : StationRuntime.signedInWords($0) },
            chosenEvent: chosen?.eventName, chosenEventComplete: chosen?.complete ?? false,
            importedGuests: (try? database.roster.importedGuestCount()) ?? storage.guests, configuredEvent: configuration.event)
        let start = pretixStation ? .scan : StationStart.decide(facts)
        let sync = pretixStation ? nil : try openSync(&configuration, session: session, database: database, forSetup: !headless && start != .scan, logger: logger)
        if headless, sync == nil, !pretixStation, options.demoRoster, storage.guests == 0 {
            let summary = try await database.roster.importRoster(try RosterCSVParser.parse(Data(DemoRoster.csv.utf8)))
            logger.notice("imported the demo roster", metadata: ["guests": "\(summary.imported)"])
        }
        // Guests a stopped download or import left unindexed: searchable by scan until indexed.
        database.searchIndex.indexInBackground()

        // 4. Printing, scanning, the flow and the user interface, as services.
        let printing = try StationPrinting.open(configuration, database: database, logger: logger)
        let sources = try makeScanSources(configuration, headless: headless)
        // Before the first request the engine's state is only "not reached yet": "connecting".
        // A station no hub was ever named to (the demo roster, a local import) is stand-alone
        // until someone signs in, not "not signed in".
        let standAlone = configuration.hubURL == nil && (try? database.setting(.hubURL)) == nil
        let hub: HubHealth = if let sync { HubHealth(await sync.status(), standAlone: standAlone) }
            else if let pretix { .pretix(list: pretix.link.listName, reason: nil) }
            else if let pretixProblem { .pretixLinkUnreadable(problem: pretixProblem.description) } else { .none }
        var health = StationHealth(printer: printing.map { PrinterCondition(state: .ready, name: $0.name) } ?? .off,
                                   camera: sources.first(where: \.isCamera).map { .scanning($0.description) } ?? .off,
                                   hub: hub)
        health.clock = (try? database.clockState()) ?? .plausible
        health.storageKey = database.keyProtection
        let runtime = StationRuntime(
            database: database, printing: printing, sync: sync,
            badgeRequest: printing.map { BadgeRequest(policy: configuration.printPolicy, queue: $0.queueName) },
            health: health, operatorName: configuration.operatorName, healthFile: HealthFile(dataDirectory: options.dataDirectory),
            pretix: pretix, attended: !headless, logger: logger)
        // The hub's station list reads the same health the console shows.
        await sync?.reportCondition { [runtime] in runtime.health.stationCondition }

        runtime.setDirection(configuration.direction)
        typealias Configured = ServiceGroupConfiguration.ServiceConfiguration
        var services: [Configured] = []
        if headless {
            let names = configuration.headlessNames ?? !HeadlessNames.stdoutIsTheJournal()
            services.append(Configured(service: HeadlessService(runtime: runtime, names: names), successTerminationBehavior: .gracefullyShutdownGroup,
                                       serviceName: "headless log"))
            if let event = StationStart.configuredEventToUse(facts) {
                services.append(Configured(service: ConfiguredEventService(runtime: runtime, event: event), successTerminationBehavior: .ignore,
                                           serviceName: "configured event"))
            }
        } else {
            // Console time starts near 0 (ConsoleService): a kept lockout goes on from there.
            let pinGuard = database.savedPINGuard().map { PINGuard(restoring: $0, now: 0, wallClock: .now()) } ?? PINGuard()
            var model = ConsoleModel(pin: configuration.selfServicePIN, selfService: configuration.selfService, pinGuard: pinGuard)
            model.setDirection(configuration.direction)
            model.offersSearch = pretix?.link.device.securityProfile.offersSearch ?? true
            if case .updated(let from, let to) = storage.storage { model.banner = "Storage updated v\(from) → v\(to)" }
            model.setupDefaults = SetupDefaults(hub: options.configuration.hubURL, event: configuration.event,
                                                email: session?.staffEmail ?? "", demo: options.demoRoster)
            var firstRequests: [ConsoleRequest] = []
            switch start {
            case .scan: break
            case .signIn: model.openSignIn()
            case .pickEvent(let who): firstRequests = model.openEventPicker(signedInAs: who)
            case .download(let event):
                model.openDownload(event: event)
                let selector = StationStart.configuredEventToUse(facts)
                firstRequests = [selector.map { .useEvent(EventChoice(id: $0, name: $0, when: "")) } ?? .resumeDownload(event: event)]
            }
            services.append(Configured(service: ConsoleService(runtime: runtime, model: model, firstRequests: firstRequests, wedge: configuration.wedge),
                                       successTerminationBehavior: .gracefullyShutdownGroup, serviceName: "console"))
        }
        services.append(Configured(service: EventsEndService(runtime: runtime), serviceName: "events"))
        services.append(Configured(service: HealthService(runtime: runtime, database: database), serviceName: "health"))
        if let retention = configuration.purgeAfter {
            services.append(Configured(service: RetentionService(database: database, retention: retention, runtime: runtime, logger: logger),
                                       serviceName: "retention"))
        }
        if let printing {
            // The news service stops after the queue (reverse order): badges that print while the
            // queue drains at shutdown are still reported.
            services.append(Configured(service: PrintNewsService(printing: printing, runtime: runtime), serviceName: "print news"))
            services.append(Configured(service: printing, serviceName: "print queue"))
        }
        if let sync {
            services.append(Configured(service: HubWatchService(engine: sync, runtime: runtime, standAlone: standAlone), serviceName: "hub status"))
            services.append(Configured(service: sync, serviceName: "sync"))
        }
        if let pretix {
            services.append(Configured(service: PretixSyncService(sync: pretix, runtime: runtime, interval: configuration.syncInterval, logger: logger),
                                       serviceName: "pretix sync"))
        } else if pretixProblem == nil {
            // A pretix device QR code scanned while the station is set up makes it a pretix device.
            services.append(Configured(service: PretixSyncService(sync: nil, runtime: runtime, interval: configuration.syncInterval, logger: logger),
                                       successTerminationBehavior: .ignore,
                                       serviceName: "pretix sync (waiting for a device QR code)"))
        }
        services.append(Configured(service: FlowService(runtime: runtime), serviceName: "check-in flow"))
        for source in sources {
            // A pipe or file ends the run at its end (tests, `cat codes | kiosk run`); a device never ends.
            let stopAtEnd = headless && !(source is ScannerScanSource) && (configuration.frames != nil || standardInputIsFinite)
            services.append(Configured(service: ScanService(source: source, runtime: runtime, stopAtEnd: stopAtEnd),
                                       successTerminationBehavior: stopAtEnd ? .gracefullyShutdownGroup : .ignore,
                                       serviceName: "scanning: \(source.description)"))
        }

        // Counting 100k guests again costs ~10 ms: only after the demo import did the count change.
        let guests = storage.guests > 0 ? storage.guests : ((try? database.status(consumeNotice: false).guests) ?? 0)
        runtime.emit(.ready(guests: guests, startupMilliseconds: (ContinuousClock.now - options.processStart).seconds * 1000,
                            scanning: sources.isEmpty ? "keyboard" : sources.map(\.description).joined(separator: ", "),
                            printer: printing?.name ?? "none"))
        runtime.emit(.health(health))
        var group = ServiceGroupConfiguration(services: services, logger: logger)
        group.gracefulShutdownSignals = [.sigterm, .sigint, .sighup]
        group.maximumGracefulShutdownDuration = .seconds(10)
        try await ServiceGroup(configuration: group).run()
        HealthFile(dataDirectory: options.dataDirectory).remove()
        return 0
    }

    /// The hub this station syncs with. The signed-in session's hub (chosen on this station)
    /// wins over a configured `hub` until sign-out; the configured one is then the sign-in
    /// screen's. Without either, no sync engine unless the console is to sign in (`forSetup`).
    static func openSync(_ configuration: inout StationConfiguration, session: StationSession?, database: KioskDatabase, forSetup: Bool,
                         logger: Logger) throws -> SyncEngine? {
        func trimmed(_ text: String) -> String { text.hasSuffix("/") ? String(text.dropLast()) : text }
        if let session, !session.signedOut {
            if let configured = configuration.hubURL, trimmed(configured) != trimmed(session.hubURL) {
                logger.warning("signed in to another hub than the configuration's: the session's is used until sign-out",
                               metadata: ["session": "\(session.hubURL)", "configured": "\(configured)"])
                FileHandle.standardError.write(Data("kiosk run: signed in to \(session.hubURL), which wins over hub = \(configured) until sign-out.\n".utf8))
            }
            configuration.hubURL = session.hubURL
        }
        let knownHub = try configuration.hubURL ?? database.setting(.hubURL)
        guard forSetup || knownHub != nil || session != nil else { return nil }
        var sync = SyncConfiguration()
        if let interval = configuration.syncInterval { sync.pullInterval = interval }
        sync.transport = TransportPolicy(caFile: configuration.caFile, allowInsecureHTTP: configuration.allowInsecureHTTP)
        if let configured = configuration.hubURL, let url = try? HubClient.parseHubURL(configured) {
            do throws(TransportRefusal) { try sync.transport.check(url) } catch {
                // Said at start, not only when someone tries to sign in.
                logger.warning("configured hub address refused", metadata: ["hub": "\(configured)"])
                FileHandle.standardError.write(Data("kiosk run: \(SyncError(error).description)\n".utf8))
            }
        }
        do {
            return try SyncEngine(database: database, configuration: sync)
        } catch {
            throw StationError.unusableInput(error.description)
        }
    }

    /// Standard input is a pipe or a regular file (not a terminal, not /dev/null).
    static var standardInputIsFinite: Bool {
        var info = stat()
        guard fstat(STDIN_FILENO, &info) == 0 else { return false }
        let type = info.st_mode & S_IFMT
        return type == S_IFIFO || type == S_IFREG
    }

    /// The sources that run side by side: the camera (or frames, or stdin headless) and the
    /// dedicated scanner when one is configured.
    static func makeScanSources(_ configuration: StationConfiguration, headless: Bool) throws -> [any ScanSource] {
        var sources = [try makeScanSource(configuration, headless: headless)].compactMap { $0 }
        if let scanner = configuration.scanner {
            sources.append(ScannerScanSource(path: scanner, layout: KeyboardLayout.named(configuration.scannerLayout) ?? .us,
                                             tabEndsCode: configuration.scannerTabEndsCode))
        }
        return sources
    }

    static func makeScanSource(_ configuration: StationConfiguration, headless: Bool) throws -> (any ScanSource)? {
        if let frames = configuration.frames {
            return CameraScanSource.frames(path: frames, width: configuration.frameWidth, height: configuration.frameHeight)
        }
        if let device = configuration.camera {
            if device.hasPrefix("sim:") { return CameraScanSource.simulated(directory: URL(fileURLWithPath: String(device.dropFirst(4)))) }
            return CameraScanSource.camera(path: device, width: configuration.frameWidth, height: configuration.frameHeight)
        }
        // Headless with no camera: a keyboard-wedge scanner (or a pipe) types codes on stdin.
        return headless ? LineCodeSource() : nil
    }

    /// Storage did not start: show which migration failed and what is kept, never scan.
    static func runDiagnostic(database: KioskDatabase, headless: Bool, pin: String?, logger: Logger) async throws -> Int32 {
        let status = try? database.status(consumeNotice: false)
        let event = StationEvent.storageUnavailable(database.storage, pending: status?.pending ?? 0, guests: status?.guests ?? 0)
        FileHandle.standardError.write(Data("kiosk run: \(database.storage.message)\n".utf8))
        if headless {
            FileHandle.standardOutput.write(Data((event.json.serialized + "\n").utf8))
            return storageUnavailableStatus
        }
        let runtime = StationRuntime(database: database, printing: nil, sync: nil, badgeRequest: nil,
                                     health: StationHealth(storage: .fault(database.storage.message)), logger: logger)
        var model = ConsoleModel(pin: pin)
        if case .storageUnavailable(let state, let pending, let guests) = event {
            var migration: String?
            if case .migrationFailed(let name, _) = state { migration = name }
            if case .checksumMismatch(let name) = state { migration = name }
            model.showDiagnostic(StorageDiagnostic(migration: migration, error: state.message, pendingCheckIns: pending, guests: guests))
        }
        // The console waits for the end of the station's events before it goes: without the
        // service that ends them, a SIGTERM left this screen running until SIGKILL.
        var group = ServiceGroupConfiguration(
            services: [.init(service: ConsoleService(runtime: runtime, model: model), successTerminationBehavior: .gracefullyShutdownGroup),
                       .init(service: EventsEndService(runtime: runtime))],
            logger: logger)
        group.gracefulShutdownSignals = [.sigterm, .sigint, .sighup]
        group.maximumGracefulShutdownDuration = .seconds(10)
        try await ServiceGroup(configuration: group).run()
        return storageUnavailableStatus
    }
}
