import ArgumentParser
import CheckInCore
import Foundation
import HubAPI
import KioskStore
import PretixSync
import RosterSync
import Station

/// Exit statuses of the sync commands.
enum SyncExitStatus {
    /// `kiosk signout` or `kiosk use` refused: changes are pending.
    static let pendingChanges: Int32 = 1
    /// The hub is unreachable (EX_UNAVAILABLE); the station keeps working offline.
    static let unreachable: Int32 = 69
    /// The hub answered in a way that does not fit the request (EX_PROTOCOL).
    static let refused: Int32 = 76
    /// Not signed in, signed out by the hub, or wrong password (EX_NOPERM).
    static let notSignedIn: Int32 = 77
    /// No event selected (EX_CONFIG).
    static let noEvent: Int32 = 78
    /// The hub address or CA file is refused by the station's settings (EX_CONFIG): an insecure
    /// `http://` address, an unusable `--ca-file`.
    static let configuration: Int32 = 78
}

extension SyncError {
    var commandFailure: CommandFailure {
        let status: Int32 = switch self {
        case .notSignedIn, .signedOut, .badCredentials: SyncExitStatus.notSignedIn
        case .noEvent: SyncExitStatus.noEvent
        case .pendingChanges: SyncExitStatus.pendingChanges
        case .unreachable: SyncExitStatus.unreachable
        case .refused, .invalidHubURL, .implausibleTime, .untrustedHub: SyncExitStatus.refused
        case .insecureHubURL, .caFileUnreadable: SyncExitStatus.configuration
        case .storage(.diskFull): ExitStatus.diskFull
        case .sessionUnreadable, .sessionUnwritable, .storage: ExitStatus.storage
        }
        return CommandFailure(description, exitCode: status)
    }
}

extension StationOptions {
    /// Opens the database and the sync engine over it.
    /// - Parameter readOnly: the command changes nothing on the station (`kiosk events`): it
    ///   works beside a running station.
    func openSyncEngine(configuration: SyncConfiguration = SyncConfiguration(), trust: HubTrustOptions, readOnly: Bool = false) throws -> SyncEngine {
        var configuration = configuration
        configuration.transport = trust.policy
        let database = try openDatabase(readOnly: readOnly)
        // One roster source at a time: a station connected to pretix is not also a hub's.
        if database.storage.isUsable, PretixLinkFile<PretixLink>(database: database).exists {
            throw CommandFailure("This station syncs with pretix (kiosk pretix connect): use kiosk pretix sync. To use a hub instead, "
                                 + "kiosk pretix disconnect first.", exitCode: SyncExitStatus.configuration)
        }
        do { return try SyncEngine(database: database, configuration: configuration) } catch { throw error.commandFailure }
    }
}

/// Runs a sync call, turning its typed error into the command's failure.
func syncing<T>(_ body: () async throws(SyncError) -> T) async throws -> T {
    do { return try await body() } catch { throw error.commandFailure }
}

struct SignInCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signin",
        abstract: "Sign this station in to a hub (password from the terminal, stdin, a file descriptor or an environment variable; never from the command line).")

    @OptionGroup var options: StationOptions
    @OptionGroup var trust: HubTrustOptions
    @Option(help: "Hub URL, e.g. https://hub.example.org or http://127.0.0.1:8080.") var hub: String
    @Option(help: "Staff e-mail address.") var email: String
    @Option(help: "Station name shown at the hub and in \"already checked in at …\" (default: the stored one).") var station: String?
    @Option(name: .customLong("password-fd"), help: "Read the password from this open file descriptor (provisioning scripts).") var passwordFD: Int32?
    @Option(name: .customLong("password-env"), help: "Read the password from this environment variable (provisioning scripts).") var passwordEnv: String?

    func run() async throws {
        try await CommandOutput.run(json: options.json) {
            let password = try SyncPassword.read(fd: passwordFD, environmentVariable: passwordEnv)
            let engine = try options.openSyncEngine(trust: trust)
            let session = try await syncing { () async throws(SyncError) in
                try await engine.signIn(hubURL: hub, email: email, password: password, stationName: station)
            }
            let pending = try engine.database.outbox.pendingCount()
            if options.json {
                CommandOutput.printJSON(["hub": .string(session.hubURL), "staff": ["name": .string(session.staffName), "email": .string(Sanitized.text(session.staffEmail)), "role": .string(session.staffRole)],
                                         "device_id": .string(engine.database.deviceID), "pending": .int(pending)])
            } else {
                CommandOutput.printError("Signed in to \(session.hubURL) as \(session.staffName) (\(session.staffRole)).")
                if pending > 0 { CommandOutput.printError("\(pending) changes from before will sync with `kiosk sync`.") }
                if (try? engine.database.syncEvent()) == nil { CommandOutput.printError("Next: `kiosk events`, then `kiosk use EVENT`.") }
            }
            return 0
        }
    }
}

struct EventsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "events", abstract: "List the events this station's staff may access.")

    @OptionGroup var options: StationOptions
    @OptionGroup var trust: HubTrustOptions
    @Option(help: "today, week or all.") var range: EventRange = .all

    func run() async throws {
        try await CommandOutput.run(json: options.json) {
            let engine = try options.openSyncEngine(trust: trust, readOnly: true)
            let events = try await syncing { () async throws(SyncError) in try await engine.events(range: range) }
            let selected = try? engine.database.syncEvent()?.eventID
            if options.json {
                CommandOutput.printJSON(["events": .array(events.map { event in
                    ["id": .string(Sanitized.text(event.id)), "name": .string(Sanitized.text(event.name)),
                     "starts_at": .optional(event.startsAt?.iso8601), "ends_at": .optional(event.endsAt?.iso8601),
                     "time_zone": .string(Sanitized.text(event.timeZone)), "selected": .bool(event.id == selected)]
                })])
            } else if events.isEmpty {
                print("No events for this account in range \(range.rawValue).")
            } else {
                for event in events {
                    let mark = event.id == selected ? "*" : " "
                    print("\(mark) \(Sanitized.text(event.id))  \(Sanitized.text(event.name))  \(event.startsAt?.iso8601 ?? "")")
                }
            }
            return 0
        }
    }
}

extension EventRange: ExpressibleByArgument {}

struct UseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "use",
        abstract: "Select the event to sync and check in (then `kiosk sync` downloads its roster); refuses while changes wait for another event unless told --wait, --keep or --discard.")

    @OptionGroup var options: StationOptions
    @OptionGroup var trust: HubTrustOptions
    @Argument(help: "Event id (or exact name) from `kiosk events`.") var event: String
    @OptionGroup var pending: PendingChangesFlags

    func validate() throws { try pending.validate() }

    func run() async throws {
        try await CommandOutput.run(json: options.json) {
            let engine = try options.openSyncEngine(trust: trust)
            let bar = SyncProgressDisplay(json: options.json)
            let chosen = try await syncing { () async throws(SyncError) in
                try await engine.use(event: event, pending: pending.choice) { bar.show($0) }
            }
            bar.finish()
            if options.json {
                CommandOutput.printJSON(["event": ["id": .string(Sanitized.text(chosen.id)), "name": .string(Sanitized.text(chosen.name))]])
            } else {
                CommandOutput.printError("Using \(Sanitized.text(chosen.name)). Run `kiosk sync` to download its roster.")
            }
            return 0
        }
    }
}

struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Pull roster changes (the full roster the first time, resumable) and push pending check-ins, with progress.")

    @OptionGroup var options: StationOptions
    @OptionGroup var trust: HubTrustOptions
    @Option(name: .customLong("page-size"), help: .hidden) var pageSize: Int?
    @Option(name: .customLong("batch-size"), help: .hidden) var batchSize: Int?

    func run() async throws {
        try await CommandOutput.run(json: options.json) {
            var configuration = SyncConfiguration()
            if let pageSize {
                // Tests: small pages, one transaction each, to kill a download between pages.
                configuration.pageSize = pageSize
                configuration.guestsPerTransaction = pageSize
            }
            if let batchSize { configuration.uploadBatchSize = batchSize }
            let engine = try options.openSyncEngine(configuration: configuration, trust: trust)
            // Beside a running station, report what it shows; alone, printer and camera unknown.
            let healthFile = HealthFile(dataDirectory: engine.database.dataDirectory)
            await engine.reportCondition { healthFile.runningCondition() }
            let bar = SyncProgressDisplay(json: options.json)
            let report = try await syncing { () async throws(SyncError) in
                try await engine.syncNow { bar.show($0) }
            }
            bar.finish()
            // A full download stores the guests first and indexes them for search afterwards
            // (scanning works already): finished here rather than left to the next station start.
            await engine.database.finishSearchIndexBeforeExit(quiet: options.json)
            let status = await engine.status()
            let refused = try engine.database.outbox.rejectedOutbox()
            let byEvent = try PendingByEvent.report(engine.database, session: await engine.currentSession())
            if options.json {
                CommandOutput.printJSON([
                    "pulled": ["guests": .int(report.guestsPulled), "check_ins": .int(report.checkInsPulled), "pages": .int(report.pages),
                               "full": .bool(report.fullDownload), "skipped_implausible": .int(report.skipped)],
                    "pushed": ["accepted": .int(report.accepted), "duplicate": .int(report.duplicates), "rejected": .int(report.rejected),
                               "held": .int(report.held)],
                    "refused": .array(refused.map(\.refusalJSON)),
                    "waiting": .array(report.waiting.map { ["event_id": .string(Sanitized.text($0.eventID)), "reason": .string($0.reason)] }),
                    "sync": ["state": .string(status.state.rawValue), "pending": .int(status.pending), "rejected": .int(status.rejected),
                             "last_pull": .optional(status.lastPull), "last_push": .optional(status.lastPush),
                             "by_event": .array(byEvent.map(\.json))]])
            } else {
                CommandOutput.printError("Pulled \(report.guestsPulled) guests, \(report.checkInsPulled) check-ins; pushed \(report.accepted) accepted, \(report.duplicates) duplicate, \(report.rejected) refused, \(report.held) held; \(status.pending) pending.")
                if report.skipped > 0 { CommandOutput.printError("  \(report.skipped) check-ins from the hub skipped: their times are not believable.") }
                for group in byEvent { CommandOutput.printError("  \(group.summary)") }
                for waiting in report.waiting { CommandOutput.printError("  not uploaded to event \(Sanitized.text(waiting.eventID)): \(waiting.reason)") }
                for entry in refused {
                    CommandOutput.printError("  refused by the hub: \(entry.kind?.rawValue ?? "?") \(Sanitized.text(entry.ref)): \(Sanitized.text(entry.lastError ?? ""))")
                }
            }
            return 0
        }
    }
}

struct SignOutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signout",
        abstract: "Sign out: refuses while check-ins are pending unless told --wait, --keep or --discard.")

    @OptionGroup var options: StationOptions
    @OptionGroup var trust: HubTrustOptions
    @OptionGroup var pending: PendingChangesFlags

    func validate() throws { try pending.validate() }

    func run() async throws {
        try await CommandOutput.run(json: options.json) {
            let engine = try options.openSyncEngine(trust: trust)
            let mode = pending.choice
            let bar = SyncProgressDisplay(json: options.json)
            let discarded: Int
            do {
                discarded = try await engine.signOut(mode) { bar.show($0) }
            } catch let error as PendingChangesRefusal {
                bar.finish()
                if options.json { CommandOutput.printJSON(["signed_out": false, "pending": .int(error.pending), "error": .string(error.description)]) }
                CommandOutput.printError("kiosk: " + error.description)
                return SyncExitStatus.pendingChanges
            }
            bar.finish()
            let pending = try engine.database.outbox.pendingCount()
            if options.json {
                CommandOutput.printJSON(["signed_out": true, "mode": .string(mode?.rawValue ?? "refuse_if_pending"), "discarded": .int(discarded), "pending": .int(pending)])
            } else {
                CommandOutput.printError("Signed out." + (discarded > 0 ? " \(discarded) unsynced changes discarded." : "")
                    + (pending > 0 ? " \(pending) pending changes kept for the next sign-in." : ""))
            }
            return 0
        }
    }
}

extension OutboxEntry {
    /// One refused upload in `kiosk sync --json`: what, for which event, why.
    var refusalJSON: JSONValue {
        ["kind": .optional(kind?.rawValue), "ref": .string(Sanitized.text(ref)), "event_id": .optional(destination?.eventID),
         "reason": .string(Sanitized.text(lastError ?? "")), "at": .string(sortAt.iso8601)]
    }
}
