import ArgumentParser
import CheckInCore
import Foundation
import KioskStore
import RosterCSV

struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import a roster CSV or Excel workbook (generic, pretix or Eventbrite export) into the station.",
        discussion: "Guests are matched by ticket code: a re-import updates them and never touches recorded check-ins. Rows with problems are listed with their line number; the good rows are imported in one transaction.")

    @Argument(help: "The roster file, with a header row: CSV (comma, semicolon or tab separated; UTF-8, UTF-16 or Windows-1252) or .xlsx (its first sheet).")
    var file: String

    @Option(help: "IANA time zone of dates without an offset in the file (a ticket's valid from/until), e.g. Europe/Berlin. Default: the station's time_zone setting, else the system's.")
    var timeZone: String?

    @Flag(help: "The file is the whole roster: revoke guests missing from it (refunded since the last export; walk-ins aside). Their check-ins stay.")
    var replace = false

    @OptionGroup var options: StationOptions

    func validate() throws {
        if let timeZone, TimeZone(identifier: timeZone) == nil {
            throw ValidationError("--time-zone \(timeZone) is not an IANA time zone (like Europe/Berlin)")
        }
    }

    func run() async throws {
        try await CommandOutput.run(json: options.json) {
            let database = try options.openDatabase()
            try database.requireUsableForCommand()
            // The parsed file is let go before the search index is finished (its rows were a
            // fifth of the command's peak memory).
            try await importAndReport(database)
            await database.finishSearchIndexBeforeExit(quiet: options.json)
            return 0
        }
    }

    private func importAndReport(_ database: KioskDatabase) async throws {
        let zone = try timeZone.flatMap(TimeZone.init(identifier:)) ?? database.venueTimeZone()
        // CSV, or an Excel workbook's first sheet: told apart by the file's content, whatever its name.
        let parsed: RosterFile
        do {
            parsed = try RosterFileReader.parse(URL(fileURLWithPath: file), options: RosterSheet.Options(timeZone: zone))
        } catch {
            throw CommandFailure("\(file): \(String(describing: error))", exitCode: ExitStatus.badInput)
        }
        if replace, let refusal = parsed.replaceRefusal {
            throw CommandFailure("\(file): \(refusal)", exitCode: ExitStatus.badInput)
        }
        let summary = try await database.roster.importRoster(parsed, replace: replace)
        if options.json {
            var read: [String: JSONValue] = [
                "delimiter": .string(parsed.delimiter.name), "encoding": .string(parsed.encoding.rawValue),
                "columns": .array(parsed.recognisedColumns.map(JSONValue.string)),
                "ignored": .array(parsed.ignoredColumns.map(JSONValue.string)),
            ]
            if let source = parsed.source { read["source"] = .string(source) }  // an Excel workbook and its sheet
            CommandOutput.printJSON([
                "imported": .int(summary.imported),
                "updated": .int(summary.updated),
                "unchanged": .int(summary.unchanged),
                "rejected": .array(summary.rejected.map { ["line": .int($0.line), "reason": .string($0.reason)] }),
                "format": .string(parsed.format),
                "read": .object(read),
                "warnings": .array(parsed.warnings.map(JSONValue.string)),
                "revoked_missing": .array(summary.revokedMissing.map { ["code": .string($0.code), "name": .string($0.name)] }),
            ])
        } else {
            print("Read as \(parsed.readAs).")
            for warning in parsed.warnings { print("Warning: \(warning)") }
            print("Imported \(summary.imported) new guests, updated \(summary.updated), unchanged \(summary.unchanged) (\(parsed.format) format).")
            for rejection in summary.rejected {
                print("  line \(rejection.line): \(rejection.reason)")
            }
            if replace {
                print("Revoked \(summary.revokedMissing.count) guests missing from the file (their check-ins are kept)\(summary.revokedMissing.isEmpty ? "." : ":")")
                for guest in summary.revokedMissing.prefix(50) { print("  \(Sanitized.text(guest.code))  \(Sanitized.text(guest.name))") }
                if summary.revokedMissing.count > 50 { print("  … and \(summary.revokedMissing.count - 50) more") }
            }
        }
    }
}

extension KioskDatabase {
    /// Finishes the search index a large import or download left to the background, before the
    /// command exits. A failure is reported, not fatal: the guests are committed, search finds
    /// them by a slower scan meanwhile, and the station finishes the index at its next start.
    func finishSearchIndexBeforeExit(quiet: Bool) async {
        if !quiet, (try? searchIndex.pendingSearchCount()) ?? 0 > 0 { CommandOutput.printError("Indexing the roster for search…") }
        do {
            try await searchIndex.finishSearchIndex()
        } catch {
            CommandOutput.printError("Search index not finished (\(error)); guests are still found by search, more slowly, and the station finishes the index at its next start.")
        }
    }

    /// Ends a command that needs working storage with the diagnostic and exit status 75.
    func requireUsableForCommand() throws {
        guard storage.isUsable else { throw CommandFailure(storage.message, exitCode: ExitStatus.storageUnavailable) }
    }
}
