import ArgumentParser
import CheckInCore
import Foundation
import KioskStore

/// `kiosk export attendance FILE.csv`: who came, for the organizer's records.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Export what the station holds.", subcommands: [Attendance.self])

    struct Attendance: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write every guest's attendance to a CSV file (readable by this user only).",
            discussion: """
                Columns: code, name, email, company, access_type, checked_in (yes/no), first_entry_at \
                (ISO 8601, UTC), station, operator, inside (yes/no), from every door this station knows of. \
                Cells a spreadsheet would run as formulas are written as text. With --json: \
                {"file", "guests", "checked_in", "inside"}.
                """)

        @Argument(help: "The CSV file to write (replaced if it exists).")
        var file: String

        @OptionGroup var options: StationOptions

        func run() async throws {
            try await CommandOutput.run(json: options.json) {
                let database = try options.openDatabase(readOnly: true)
                try database.requireUsableForCommand()
                let records = try database.roster.attendance()
                let url = URL(fileURLWithPath: file)
                do {
                    try Data(RosterStore.attendanceCSV(records).utf8).write(to: url, options: .atomic)
                } catch {
                    throw ValidationError("Cannot write \(Sanitized.text(file)): \((error as NSError).localizedDescription). Choose a folder you can write to.")
                }
                chmod(url.path, 0o600)
                try await database.setSetting(.attendanceExportedAt, Timestamp.now().iso8601)
                let checkedIn = records.count { $0.firstEntry != nil }, inside = records.count(where: \.inside)
                if options.json {
                    CommandOutput.printJSON(["file": .string(url.path), "guests": .int(records.count), "checked_in": .int(checkedIn), "inside": .int(inside)])
                } else {
                    print("Wrote \(records.count) guests (\(checkedIn) checked in, \(inside) inside) to \(Sanitized.text(url.path)).")
                }
                return 0
            }
        }
    }
}
