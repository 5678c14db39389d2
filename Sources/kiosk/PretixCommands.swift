import ArgumentParser
import CheckInCore
import Foundation
import KioskStore
import PretixClient
import PretixSync
import RosterSync

/// `kiosk pretix …`: the station as a pretix device (README "With pretix").
struct PretixCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pretix",
        abstract: "Connect this station to a pretix check-in list, and sync with it.",
        subcommands: [PretixConnectCommand.self, PretixSyncCommand.self, PretixDisconnectCommand.self])
}

/// Exit statuses of the pretix commands.
enum PretixExitStatus {
    /// pretix cannot be reached or failed (EX_UNAVAILABLE); the station keeps working offline.
    static let unreachable: Int32 = 69
    /// pretix refused (a spent or wrong token, a revoked device: EX_NOPERM).
    static let refused: Int32 = 77
    /// pretix revoked the device: the list's guests were removed from the station (EX_NOPERM).
    static let revoked: Int32 = 77
    /// Not connected, or the event or list must be chosen (EX_CONFIG).
    static let configuration: Int32 = 78
}

extension PretixSyncError {
    var commandFailure: CommandFailure {
        let status: Int32 = switch self {
        case .notConnected, .noDevice, .noSuchEvent, .chooseList, .linkUnreadable: PretixExitStatus.configuration
        case .pretix(.deviceRevoked), .revoked: PretixExitStatus.revoked
        case .pretix(let error): error.isTransient ? PretixExitStatus.unreachable : PretixExitStatus.refused
        case .storage(.diskFull): ExitStatus.diskFull
        case .storage, .linkUnwritable: ExitStatus.storage
        case .pendingChanges: SyncExitStatus.pendingChanges
        }
        return CommandFailure(description, exitCode: status)
    }
}

func pretixing<T>(_ body: () async throws(PretixSyncError) -> T) async throws -> T {
    do { return try await body() } catch { throw error.commandFailure }
}

struct PretixConnectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "connect",
        abstract: "Make this station a pretix device with the token from pretix (Organizer → Devices → Connect), choose the check-in list and download its orders.")

    @OptionGroup var options: StationOptions
    @Option(help: "pretix's address, e.g. https://tickets.example.org/ (not needed again once the station is a pretix device).") var url: String?
    @Option(help: "The device's initialization token from pretix (it works once; choosing another event or list later needs none).") var token: String?
    @Option(help: "The event's short form (slug); needed when the device sees several events.") var event: String?
    @Option(help: "The check-in list's id; needed when the event has several lists.") var list: Int?
    @Option(help: "Whose word the door takes first: local-first (the default: the station decides at once) or online-first (pretix is asked first and the station decides when pretix has not answered within the budget). Kept until changed.")
    var decide: PretixDecisionMode?
    @Option(help: "How long a scan waits for pretix's answer, in milliseconds (100 to 10000; default 1000), online first or where only pretix decides (a list with rules, questions to ask). Kept until changed.")
    var onlineBudgetMs: Int?

    func validate() throws {
        if let onlineBudgetMs, !(100...10_000).contains(onlineBudgetMs) { throw ValidationError("--online-budget-ms must be 100 to 10000") }
    }

    func run() async throws {
        try await CommandOutput.run(json: options.json) {
            let database = try options.openDatabase()
            // One roster source at a time: a station signed in to a hub signs out first.
            if let session = try? SessionFile(database: database).load(), !session.signedOut {
                throw CommandFailure("This station is signed in to the hub \(Sanitized.text(session.hubURL)): kiosk signout first "
                                     + "(its pending check-ins go to the hub), then connect it to pretix.", exitCode: PretixExitStatus.configuration)
            }
            let link = try await pretixing { () async throws(PretixSyncError) in
                try await PretixSync.connect(database: database, server: url, token: token, event: event, list: list, identity: .thisStation,
                                             mode: decide, onlineBudgetMilliseconds: onlineBudgetMs)
            }
            let report = try await pretixing { () async throws(PretixSyncError) in
                try await PretixSync(database: database, link: link).pull()
            }
            await database.finishSearchIndexBeforeExit(quiet: options.json)
            if options.json {
                CommandOutput.printJSON([
                    "device": ["id": .int(link.device.deviceID), "name": .string(Sanitized.text(link.device.name)),
                               "organizer": .string(Sanitized.text(link.device.organizer))],
                    "event": .string(Sanitized.text(link.event)), "list": ["id": .int(link.list), "name": .string(Sanitized.text(link.listName))],
                    "orders": .int(report.orders), "decide": .string((link.mode ?? .localFirst).rawValue),
                    "online_budget_ms": .int(Int(link.onlineBudget.seconds * 1_000)),
                    "pretix_decides": .array(pretixDecides(link).map(JSONValue.string)),
                    "questions_at_the_door": .int(link.doorQuestionCount)])
            } else {
                print("Connected to pretix as device \(Sanitized.text(link.device.name)) of \(Sanitized.text(link.device.organizer)): "
                      + "event \(Sanitized.text(link.eventName)), check-in list \(Sanitized.text(link.listName)). \(report.orders) orders downloaded.")
                if link.mode == .onlineFirst { print("Online first: each scan asks pretix and waits for it at most \(link.onlineBudget).") }
                let asked = link.doorQuestionCount
                if asked > 0 { print("\(asked) question(s) are asked at the door before an entry, as pretix asks them; the answers go to pretix.") }
                let decides = pretixDecides(link)
                if !decides.isEmpty {
                    print("pretix decides entries itself here (\(decides.joined(separator: ", "))): the station asks it at each scan and refuses "
                          + "those entries while pretix cannot be reached.")
                }
            }
            return 0
        }
    }
}

/// What only pretix decides at the link's list, in words.
func pretixDecides(_ link: PretixLink) -> [String] {
    guard let needs = link.onlineNeeds else { return [] }
    return needs.listRules ? ["the list's rules"] : []
}

extension PretixDecisionMode: ExpressibleByArgument {}

struct PretixSyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Send this station's queued check-ins to pretix, then download the orders changed since the last sync.")

    @OptionGroup var options: StationOptions

    func run() async throws {
        try await CommandOutput.run(json: options.json) {
            let database = try options.openDatabase()
            let sync = try await pretixing { () async throws(PretixSyncError) in try PretixSync.linked(database) }
            let round = try await pretixing { () async throws(PretixSyncError) -> (PretixSync.PushReport, PretixSync.PullReport) in
                do throws(PretixSyncError) {
                    let pushed = try await sync.push()
                    return (pushed, try await sync.pull())
                } catch where error.isDeviceRevoked {
                    // Revoked in pretix: the guest data goes now, as on a running station.
                    let words = try await sync.end(.revokedInPretix)
                    throw PretixSyncError.revoked(words)
                }
            }
            let (pushed, pulled) = round
            await database.finishSearchIndexBeforeExit(quiet: options.json)
            let pending = try database.outbox.pendingCount()
            let refused = try database.outbox.rejectedOutbox()
            if options.json {
                CommandOutput.printJSON([
                    "pushed": ["recorded": .int(pushed.recorded), "refused": .int(pushed.refused), "reported": .int(pushed.reported),
                               "badges": .int(pushed.badges)],
                    "pulled": ["orders": .int(pulled.orders), "complete": .bool(pulled.complete), "told_version": .optional(pulled.toldVersion)],
                    "pending": .int(pending), "refused": .array(refused.map(\.refusalJSON))])
            } else {
                func count(_ n: Int, _ one: String, _ many: String) -> String { "\(n) " + (n == 1 ? one : many) }
                print("Sent \(count(pushed.recorded, "check-in", "check-ins")) to pretix\(pushed.refused > 0 ? ", \(pushed.refused) refused by pretix" : "")"
                      + (pushed.reported > 0 ? ", \(count(pushed.reported, "refused scan", "refused scans")) for its list of failed check-ins" : "")
                      + (pushed.badges > 0 ? ", \(count(pushed.badges, "printed badge", "printed badges")) for its print log" : "") + "; "
                      + "\(count(pulled.orders, "order", "orders")) changed since the last sync. \(pending) waiting to be sent."
                      + (pulled.toldVersion.map { " Told pretix this station now runs version \($0)." } ?? ""))
            }
            return 0
        }
    }
}

struct PretixDisconnectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "disconnect",
        abstract: "End this station's pretix link: send what is queued, revoke the device in pretix, and remove the list's guests from the station (what it admitted is kept).")

    @OptionGroup var options: StationOptions
    @Flag(help: "Disconnect even though check-ins are not in pretix yet (they are dropped from the upload; the station keeps its own record).")
    var discard = false

    func run() async throws {
        try await CommandOutput.run(json: options.json) {
            let database = try options.openDatabase()
            let sync = try await pretixing { () async throws(PretixSyncError) in try PretixSync.linked(database) }
            let words = try await pretixing { () async throws(PretixSyncError) in try await sync.disconnect(discarding: discard) }
            if options.json {
                CommandOutput.printJSON(["disconnected": .bool(true), "message": .string(words)])
            } else {
                print(words)
            }
            return 0
        }
    }
}
