import ArgumentParser
import CheckInCore
import KioskStore

/// `kiosk access-type set NAME --reentry`: a roster imported here (no hub) says which access
/// types may come back in, as `checkin-hub access-type add --reentry` does for a hub's event.
struct AccessTypeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "access-type", abstract: "Re-entry for an access type of a roster imported on this station (no hub).",
        subcommands: [Set.self])

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Mark an access type re-entry (guests may leave and come back) or single entry.",
            discussion: "A hub's access types are changed at the hub (checkin-hub access-type add --reentry).")

        @Argument(help: "The access type's name, as in the roster's access_type column (e.g. Crew).") var name: String
        @Flag(exclusivity: .exclusive, help: "Re-entry: guests may leave and come back, or single entry (the default of an imported type).")
        var entry: Entry
        @OptionGroup var options: StationOptions

        enum Entry: String, EnumerableFlag { case reentry, singleEntry }

        func run() async throws {
            try await CommandOutput.run(json: options.json) {
                let database = try options.openDatabase()
                try database.requireUsableForCommand()
                let type = try await database.roster.setReentry(accessType: name, entry == .reentry)
                if options.json {
                    CommandOutput.printJSON(["id": .string(type.id), "name": .string(Sanitized.text(type.name)), "reentry": .bool(type.reentry)])
                } else {
                    print("\(Sanitized.text(type.name)): \(type.reentry ? "re-entry (guests may leave and come back)" : "single entry")")
                }
                return 0
            }
        }
    }
}

/// `kiosk entrance --admits VIP,Crew`: which access types this entrance lets in; others are
/// refused as "not valid for this entrance". Without options, shows the current setting.
struct EntranceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "entrance", abstract: "Which access types this entrance admits (default: every type).")

    @Option(help: "Access types this entrance admits, by name, comma-separated (e.g. \"VIP,Crew\").") var admits: String?
    @Flag(help: "Admit every access type again.") var admitsAll = false
    @OptionGroup var options: StationOptions

    func validate() throws {
        if admits != nil && admitsAll { throw ValidationError("Give --admits or --admits-all, not both.") }
    }

    func run() async throws {
        try await CommandOutput.run(json: options.json) {
            let changes = admits != nil || admitsAll
            let database = try options.openDatabase(readOnly: !changes)
            try database.requireUsableForCommand()
            let types: [AccessType]?
            if changes {
                let names = admits?.split(separator: ",").map(String.init).filter { !$0.allSatisfy(\.isWhitespace) }
                types = try await database.roster.setAdmittedAccessTypes(admitsAll ? nil : names ?? [])
            } else {
                types = try database.roster.admittedAccessTypes()
            }
            let names = types?.map { Sanitized.text($0.name) }
            if options.json {
                CommandOutput.printJSON(["admits": names.map { .array($0.map(JSONValue.string)) } ?? .string("all")])
            } else {
                print("This entrance admits " + (names.map { $0.joined(separator: ", ") } ?? "every access type") + ".")
            }
            return 0
        }
    }
}
