import ArgumentParser
import CheckInCore
import Foundation
import HubAPI
import HubServer

struct StaffCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "staff",
        abstract: "Manage staff: accounts, their events, and their lifecycle.",
        discussion: """
            Organizers see every event. Support and check-in staff see only the events they are \
            assigned to (`staff assign`). Disable, remove and passwd revoke the person's sessions at once: \
            the stations signed in with them are listed first; they need a new sign-in, and keep their \
            pending check-ins.
            """,
        subcommands: [Add.self, List.self, Assign.self, Unassign.self, Disable.self, Enable.self, Remove.self, Passwd.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a staff member. The password is read from the terminal, or from stdin when it is not a terminal.")
        @OptionGroup var options: DatabaseOptions
        @Option(help: "E-mail (sign-in name).") var email: String
        @Option(help: "Display name, shown at stations.") var name: String
        @Option(help: "organizer, support or staff.") var role: String

        func run() async throws {
            guard let role = StaffRole(rawValue: role) else { throw ValidationError("--role must be organizer, support or staff.") }
            let password = try readPassword(prompt: "Password for \(email): ")
            let info = StaffInfo(id: Tokens.identifier("st"), email: email.lowercased(), name: Sanitized.text(name), role: role)
            let hash = try PasswordHasher.hash(password)
            let audit = OrganizerAction(eventID: nil, actor: CommandLineActor.current(), kind: .staffAdded, subject: info.email,
                                        detail: "\(info.name), \(role.rawValue)", at: .now())
            try await options.withStore { try await $0.addStaff(info, passwordHash: hash, audit: audit) }
            if options.json { printJSON(["id": info.id, "email": info.email, "role": role.rawValue]) } else { print(info.id) }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List staff with their role, state and events.")
        @OptionGroup var options: DatabaseOptions
        @Option(help: "Only the people who see this event (its assigned staff, and organizers).") var event: String?

        func run() async throws {
            let accounts = try await options.withStore { store in
                if let event, try await store.event(id: event) == nil { throw HubStoreError.unknownEvent(event) }
                return try await store.staffAccounts(event: event)
            }
            if options.json {
                printJSON(["staff": accounts.map {
                    ["id": $0.info.id, "email": $0.info.email, "name": $0.info.name, "role": $0.info.role.rawValue,
                     "disabled": $0.disabled, "events": $0.events] as [String: Any]
                }])
            } else {
                for account in accounts {
                    let events = account.info.role == .organizer ? "all events" : (account.events.isEmpty ? "no events" : account.events.joined(separator: ", "))
                    print("\(account.info.email)  \(Sanitized.text(account.info.name))  \(account.info.role.rawValue)"
                        + "\(account.disabled ? "  DISABLED" : "")  \(events)")
                }
            }
        }
    }

    struct Assign: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Let support or check-in staff see an event (organizers see every event).")
        @OptionGroup var options: DatabaseOptions
        @Option(help: "Event id.") var event: String
        @Option(help: "E-mail of a staff member; repeat for several.") var email: [String]

        func run() async throws {
            guard !email.isEmpty else { throw ValidationError("Give at least one --email.") }
            let actor = CommandLineActor.current(), event = event
            let assigned = try await options.withStore {
                try await $0.assign(event: event, emails: email, now: .now()) { info in
                    OrganizerAction(eventID: event, actor: actor, kind: .staffAssigned, subject: info.email, at: .now())
                }
            }
            if options.json { printJSON(["event": event, "assigned": assigned.map(\.email)]) } else {
                for info in assigned { print("\(info.email) sees \(event)") }
            }
        }
    }

    struct Unassign: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "End staff members' access to an event; their stations get 404 for it from the next request.")
        @OptionGroup var options: DatabaseOptions
        @Option(help: "Event id.") var event: String
        @Option(help: "E-mail of a staff member; repeat for several.") var email: [String]

        func run() async throws {
            guard !email.isEmpty else { throw ValidationError("Give at least one --email.") }
            let actor = CommandLineActor.current(), event = event
            let ended = try await options.withStore {
                try await $0.unassign(event: event, emails: email) { info in
                    OrganizerAction(eventID: event, actor: actor, kind: .staffUnassigned, subject: info.email, at: .now())
                }
            }
            if options.json { printJSON(["event": event, "unassigned": ended]) } else { print("\(ended) assignment(s) ended") }
        }
    }

    struct Disable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Refuse a person's sign-in and revoke their sessions, until `staff enable`.")
        @OptionGroup var options: DatabaseOptions
        @Option(help: "E-mail.") var email: String

        func run() async throws { try await applyChange(.disable, to: email, options: options, done: "disabled") }
    }

    struct Enable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Let a disabled person sign in again.")
        @OptionGroup var options: DatabaseOptions
        @Option(help: "E-mail.") var email: String

        func run() async throws { try await applyChange(.enable, to: email, options: options, done: "enabled") }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove a person: sessions revoked, assignments ended, e-mail freed (their check-ins keep their name).")
        @OptionGroup var options: DatabaseOptions
        @Option(help: "E-mail.") var email: String

        func run() async throws { try await applyChange(.remove, to: email, options: options, done: "removed") }
    }

    struct Passwd: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set a new password (read from the terminal, or stdin); every session of the person is revoked.")
        @OptionGroup var options: DatabaseOptions
        @Option(help: "E-mail.") var email: String

        func run() async throws {
            let hash = try PasswordHasher.hash(try readPassword(prompt: "New password for \(email): "))
            try await applyChange(.password(hash: hash), to: email, options: options, done: "password changed")
        }
    }
}

/// Lists the stations that will need a new sign-in, applies the change, and says what happened.
private func applyChange(_ change: StaffChange, to email: String, options: DatabaseOptions, done: String) async throws {
    let revoked = try await options.withStore { store in
        if change.revokesSessions {
            let live = try await store.sessions().filter { !$0.revoked && $0.staffEmail.lowercased() == email.lowercased() }
            if !options.json {
                for session in live {
                    let station = session.stationName.map { "station \(Sanitized.text($0)) (\(session.deviceID ?? "-"))" } ?? "a session without a station"
                    print("signing out \(station), last seen \(session.lastUsedAt.iso8601): it needs a new sign-in; its pending check-ins are kept")
                }
            }
        }
        return try await store.change(staff: email, change, now: .now(), audit: OrganizerAction(
            eventID: nil, actor: CommandLineActor.current(), kind: change.auditKind, subject: email.lowercased(),
            detail: change.revokesSessions ? "sessions revoked" : "", at: .now()))
    }
    if options.json {
        printJSON(["email": email, "result": done, "revoked_sessions": revoked.map {
            ["id": $0.id, "station": $0.stationName ?? NSNull(), "device_id": $0.deviceID ?? NSNull()] as [String: Any]
        }])
    } else {
        print("\(email): \(done), \(revoked.count) session(s) revoked")
    }
}

/// A password from the terminal (not echoed), or one line of stdin when it is not a terminal.
private func readPassword(prompt: String) throws -> String {
    let password: String
    if isatty(0) != 0 {
        guard let entered = getpass(prompt) else { throw ValidationError("No password entered.") }
        password = String(cString: entered)
    } else {
        password = readLine(strippingNewline: true) ?? ""
    }
    if let problem = NewPassword.problem(password) { throw ValidationError(problem) }
    return password
}

extension StaffChange {
    /// What the organizer log calls the change (as the dashboard's staff page records it).
    var auditKind: OrganizerAction.Kind {
        switch self {
        case .disable: .staffDisabled
        case .enable: .staffEnabled
        case .remove: .staffRemoved
        case .password: .passwordReset
        }
    }
}
