import ArgumentParser
import CheckInCore
import Foundation
import HubAPI
import HubServer
import RosterCSV

struct EventCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "event", abstract: "Manage events.", subcommands: [Create.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create an event; prints its id.")
        @OptionGroup var options: DatabaseOptions
        @Option(help: "Event name.") var name: String
        @Option(help: "Tolerance window in seconds: admissions closer than this are one check-in.") var windowSeconds: Int64 = 30
        @Option(help: "How long a station may undo its own check-ins, in seconds.") var undoSeconds: Int64 = 300
        @Option(help: "Start, ISO 8601 (e.g. 2026-11-22T18:00:00Z).") var starts: String?
        @Option(help: "End, ISO 8601.") var ends: String?
        @Option(help: "IANA time zone of the venue.") var timeZone = "UTC"
        @Option(help: "Event id (default: generated).") var id: String?

        func run() async throws {
            let startsAt = try starts.map { try parse($0, "--starts") }, endsAt = try ends.map { try parse($0, "--ends") }
            // Bounded, so the milliseconds below cannot overflow (a day is far beyond any real window).
            guard (0...86_400).contains(windowSeconds) else { throw ValidationError("--window-seconds must be 0 to 86400.") }
            guard (0...604_800).contains(undoSeconds) else { throw ValidationError("--undo-seconds must be 0 to 604800 (a week).") }
            let event = EventSummary(
                id: id ?? Tokens.identifier("ev"), name: Sanitized.text(name), startsAt: startsAt, endsAt: endsAt, timeZone: timeZone,
                toleranceWindowMilliseconds: windowSeconds * 1000, stationUndoMilliseconds: undoSeconds * 1000)
            let audit = OrganizerAction(
                eventID: event.id, actor: CommandLineActor.current(), kind: .eventCreated, subject: event.id,
                detail: "\(event.name), tolerance \(windowSeconds) s, undo \(undoSeconds) s, \(timeZone)", at: .now())
            try await options.withStore { try await $0.createEvent(event, audit: audit) }
            if options.json { printJSON(["id": event.id, "name": event.name]) } else { print(event.id) }
        }

        func parse(_ text: String, _ option: String) throws -> Timestamp {
            guard let value = Timestamp(iso8601: text) else { throw ValidationError("\(option): give a time like 2026-11-22T18:00:00Z.") }
            return value
        }
    }
}

struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Import an event's roster from CSV or .xlsx (same columns as `kiosk import`).")
    @OptionGroup var options: DatabaseOptions
    @Option(help: "Event id.") var event: String
    @Argument(help: "Roster file: CSV or .xlsx (its first sheet).") var file: String
    @Flag(help: "The file is the whole roster: revoke the event's guests missing from it (refunded since the last export); their check-ins stay.")
    var replace = false

    func run() async throws {
        let report = try await options.withStore { store in
            guard let summary = try await store.event(id: event) else { throw ValidationError("No event \(event): see checkin-hub event list.") }
            let actor = CommandLineActor.current(), name = URL(fileURLWithPath: file).lastPathComponent, replace = replace
            let audit: @Sendable (ImportSummary) -> OrganizerAction = { imported in
                OrganizerAction(eventID: summary.id, actor: actor, kind: .rosterUploaded, subject: name,
                                detail: "imported \(imported.imported), updated \(imported.updated), unchanged \(imported.unchanged)"
                                    + (replace ? ", \(imported.revokedMissing.count) missing revoked" : ""), at: .now())
            }
            do {
                return try await RosterImport.run(URL(fileURLWithPath: file), into: summary, replace: replace, store: store, audit: audit)
            } catch let failure as RosterImport.Failure {
                throw ValidationError("\(file): \(failure)")
            }
        }
        let parsed = report.file, summary = report.summary
        if options.json {
            var read: [String: Any] = ["delimiter": parsed.delimiter.name, "encoding": parsed.encoding.rawValue, "columns": parsed.recognisedColumns,
                                       "ignored": parsed.ignoredColumns]
            if let source = parsed.source { read["source"] = source }  // an Excel workbook and its sheet
            printJSON([
                "imported": summary.imported, "updated": summary.updated, "unchanged": summary.unchanged,
                "rejected": parsed.rejected.map { ["line": $0.line, "reason": $0.reason] as [String: Any] }, "format": parsed.format,
                "read": read,
                "warnings": parsed.warnings, "revoked_missing": summary.revokedMissing,
            ])
        } else {
            print("Read as \(parsed.readAs).")
            for warning in parsed.warnings { print("Warning: \(warning)") }
            print("Imported \(summary.imported), updated \(summary.updated), unchanged \(summary.unchanged), rejected \(parsed.rejected.count).")
            if replace {
                print("Revoked \(summary.revokedMissing.count) missing from the file\(summary.revokedMissing.isEmpty ? "" : ": " + summary.revokedMissing.prefix(20).map { Sanitized.text($0) }.joined(separator: ", ") + (summary.revokedMissing.count > 20 ? ", …" : "")).")
            }
            for rejection in parsed.rejected { print("  line \(rejection.line): \(Sanitized.text(rejection.reason))") }
        }
    }
}

struct AccessTypeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "access-type", abstract: "Manage access types.", subcommands: [Add.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add or change an access type (single entry unless --reentry).")
        @OptionGroup var options: DatabaseOptions
        @Option(help: "Event id.") var event: String
        @Option(help: "Name, e.g. 'Day pass'.") var name: String
        @Option(help: "Id (default: derived from the name, as roster imports do).") var id: String?
        @Flag(help: "Guests may leave and come back.") var reentry = false
        @Option(help: "Valid from, ISO 8601.") var validFrom: String?
        @Option(help: "Valid until, ISO 8601.") var validUntil: String?

        func run() async throws {
            let from = try validFrom.map { text -> Timestamp in
                guard let t = Timestamp(iso8601: text) else { throw ValidationError("--valid-from: give an ISO 8601 time.") }
                return t
            }
            let until = try validUntil.map { text -> Timestamp in
                guard let t = Timestamp(iso8601: text) else { throw ValidationError("--valid-until: give an ISO 8601 time.") }
                return t
            }
            let type = AccessType(id: id ?? AccessType.identifier(forName: name), name: name, reentry: reentry, validFrom: from, validUntil: until)
            let audit = OrganizerAction(eventID: event, actor: CommandLineActor.current(), kind: .accessTypeSaved, subject: type.id,
                                        detail: "\(type.name): \(type.reentry ? "re-entry" : "single entry")", at: .now())
            try await options.withStore { try await $0.upsertAccessType(event: event, type, audit: audit) }
            if options.json { printJSON(["id": type.id, "name": type.name, "reentry": type.reentry]) } else { print(type.id) }
        }
    }
}

struct TokensCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "tokens", abstract: "Station and staff sessions.", subcommands: [List.self, Revoke.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List sessions (one per signed-in station or staff member).")
        @OptionGroup var options: DatabaseOptions

        func run() async throws {
            let sessions = try await options.withStore { try await $0.sessions() }
            if options.json {
                printJSON(["sessions": sessions.map {
                    ["id": $0.id, "staff": $0.staffEmail, "device_id": $0.deviceID ?? NSNull(), "station": $0.stationName ?? NSNull(),
                     "created_at": $0.createdAt.iso8601, "last_used_at": $0.lastUsedAt.iso8601, "revoked": $0.revoked] as [String: Any]
                }])
            } else {
                for s in sessions {
                    print("\(s.id)  \(s.staffEmail)  \(s.stationName.map(Sanitized.text) ?? "-")  \(s.deviceID ?? "-")  \(s.revoked ? "revoked" : "active")")
                }
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke a session: its tokens stop working at once.")
        @OptionGroup var options: DatabaseOptions
        @Argument(help: "Session id from `tokens list`.") var session: String

        func run() async throws {
            let revoked = try await options.withStore { store in
                let detail = try await store.sessions().first { $0.id == session }.map { "\($0.staffEmail), \($0.stationName ?? "no station")" } ?? ""
                return try await store.revokeSession(id: session, now: .now(), audit: OrganizerAction(
                    eventID: nil, actor: CommandLineActor.current(), kind: .sessionRevoked, subject: session, detail: detail, at: .now()))
            }
            if options.json { printJSON(["revoked": revoked]) } else { print(revoked ? "revoked" : "no active session \(session)") }
            if !revoked { throw ExitCode(1) }
        }
    }
}

struct StatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "stats", abstract: "Expected, checked in, inside, duplicates, conflicts, flagged exits.")
    @OptionGroup var options: DatabaseOptions
    @Option(help: "Event id.") var event: String

    func run() async throws {
        let stats = try await options.withStore { try await $0.stats(event: event) }
        if options.json {
            let group: (StatsGroup) -> [String: Any] = { ["id": $0.id, "expected": $0.expected, "checked_in": $0.checkedIn, "inside": $0.inside] }
            printJSON([
                "expected": stats.expected, "checked_in": stats.checkedIn, "inside": stats.inside, "duplicates": stats.duplicates,
                "conflicts": stats.conflicts, "access_types": stats.accessTypes.map(group), "stations": stats.stations.map(group),
                "flagged_exits": stats.flaggedExits ?? 0,
            ])
        } else {
            print("expected \(stats.expected), checked in \(stats.checkedIn), inside \(stats.inside), duplicates \(stats.duplicates), "
                + "conflicts \(stats.conflicts), flagged exits \(stats.flaggedExits ?? 0)")
        }
    }
}
