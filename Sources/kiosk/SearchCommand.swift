import ArgumentParser
import CheckInCore
import Foundation
import KioskStore

/// `kiosk search QUERY`: the console's guest search, for support staff and scripts.
struct SearchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Find guests by name, e-mail, company or code, as the console's search does.",
        discussion: """
            Accents and case do not matter, and any part of a word matches. With --json: \
            {"results": [{"name", "email", "company", "code", "access_type", "checked_in", "checked_in_at"}]}. \
            Exit status: 0 with results, 1 without; 70 storage error, 75 storage not started (failed migration).
            """)

    @Argument(help: "What to look for (at least one character).")
    var query: String

    @Option(help: "At most this many guests.")
    var limit = 20

    @OptionGroup var options: StationOptions

    func validate() throws {
        guard !query.trimmingCharacters(in: .whitespaces).isEmpty else { throw ValidationError("Give something to search for.") }
        guard (1...1_000).contains(limit) else { throw ValidationError("--limit must be 1 to 1000.") }
    }

    func run() async throws {
        try await CommandOutput.run(json: options.json) {
            let database = try options.openDatabase(readOnly: true)
            try database.requireUsableForCommand()
            let found = try database.searchIndex.search(query, limit: limit)
            if options.json {
                CommandOutput.printJSON(["results": .array(found.map(\.searchJSON))])
            } else if found.isEmpty {
                print("No guest matches \(Sanitized.text(query)).")
            } else {
                for details in found {
                    let guest = details.guest
                    let state = details.checkedIn.map { "checked in \($0.at.iso8601) at \(Sanitized.text($0.station))" } ?? "not checked in"
                    print([guest.name, guest.email, guest.company, guest.code.value, details.accessTypeName, state]
                        .map(Sanitized.text).filter { !$0.isEmpty }.joined(separator: "  ·  "))
                }
            }
            return found.isEmpty ? 1 : 0
        }
    }
}

extension GuestDetails {
    /// One result of `kiosk search --json`.
    var searchJSON: JSONValue {
        [
            "name": .string(Sanitized.text(guest.name)), "email": .string(Sanitized.text(guest.email)),
            "company": .string(Sanitized.text(guest.company)), "code": .string(Sanitized.text(guest.code.value)),
            "access_type": .string(Sanitized.text(accessTypeName)), "checked_in": .bool(checkedIn != nil),
            "checked_in_at": .optional(checkedIn?.at.iso8601),
        ]
    }
}
