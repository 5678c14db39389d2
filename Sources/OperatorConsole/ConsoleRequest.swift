import CheckInCore

/// What the operator (or attendee) asked for; the station runtime performs it and answers
/// through ``ConsoleModel`` methods (``ConsoleModel/show(_:now:)``, ``ConsoleModel/searchResults(for:_:)``…).
public enum ConsoleRequest: Sendable, Equatable {
    /// A code typed or sent by a keyboard-wedge scanner, then Enter.
    case submitCode(String)
    /// The search query changed (search as you type).
    case search(String)
    /// Check in the guest picked in the search list.
    case checkInGuest(code: String)
    /// Check in every ticket of the picked guest's order, each decided and shown on its own.
    case checkInOrder(code: String)
    /// Register a walk-in (validated by the model first, by the store again).
    case registerWalkIn(WalkInDraft)
    case reprintLast
    case reprint(guestID: String)
    case undoLast
    case syncNow
    /// List the uploads the hub refused for good.
    case listRefused
    /// The station switches between recording entries and exits (F12).
    case setDirection(Direction)
    /// The self-service PIN locked after too many wrong entries (for the health log).
    case pinLockedOut(seconds: Double)
    /// A PIN entry was checked: the guard to keep, before the next entry, so a restart neither
    /// clears the wrong entries counted nor ends a lockout.
    case savePINGuard(PINGuard)
    /// Staff typed the answer to "admit anyway?" for this unpaid ticket: present it again, admitted.
    case admitUnpaid(code: String)
    /// The answers to a ticket's questions at the door, as typed: the code presented again with them.
    case answerQuestions(code: String, answers: [String: String])
    /// The operator's answer about badges that waited too long.
    case answerStaleBadges(StaleBadgesChoice)
    case signOut(PendingChangesChoice)
    /// Sign this station in to a hub (the sign-in screen).
    case signIn(SignInCredentials)
    /// The signed-in staff member's events in a range (the event picker).
    case listEvents(EventRange)
    /// Use this event and download its roster.
    case useEvent(EventChoice)
    /// Use this pretix check-in list (the picker after a pretix device QR code) and download its orders.
    case usePretixList(EventChoice)
    /// Download the chosen event's roster again (a download a stop interrupted).
    case resumeDownload(event: String)
    /// No hub: start on the demo roster (offered on the sign-in screen of an empty station).
    case useDemoRoster
    /// Quit confirmed.
    case quit
}

/// The walk-in form's values.
public struct WalkInDraft: Sendable, Equatable {
    public var name = ""
    public var email = ""
    public var company = ""
    public var accessTypeID = ""

    public init(name: String = "", email: String = "", company: String = "", accessTypeID: String = "") {
        self.name = name
        self.email = email
        self.company = company
        self.accessTypeID = accessTypeID
    }

    /// The first problem, as (field index, message), or nil when the draft may be submitted.
    public func problem() -> (field: Int, message: String)? {
        let name = self.name.trimmingCharacters(in: .whitespaces)
        if name.isEmpty { return (0, "Name: enter the guest's name") }
        if name.count > 200 { return (0, "Name: at most 200 characters") }
        let email = self.email.trimmingCharacters(in: .whitespaces)
        if !email.isEmpty {
            let parts = email.split(separator: "@", omittingEmptySubsequences: false)
            if parts.count != 2 || parts[0].isEmpty || !parts[1].contains(".") || email.contains(" ") {
                return (1, "E-mail: not a valid address (leave it empty if unknown)")
            }
        }
        if accessTypeID.isEmpty { return (3, "Access type: choose one with ← →") }
        return nil
    }
}

/// One guest in the search list, already reduced to what the console shows.
public struct GuestRow: Sendable, Equatable {
    public var id: String
    public var code: String
    public var name: String
    public var email: String
    public var company: String
    public var accessType: String
    public var checkedIn: PriorCheckIn?
    /// The ticket's order code (empty: none); guests of one order can be checked in together.
    public var order: String

    public init(id: String, code: String, name: String, email: String, company: String, accessType: String, checkedIn: PriorCheckIn?,
                order: String = "") {
        self.order = order
        self.id = id
        self.code = code
        self.name = name
        self.email = email
        self.company = company
        self.accessType = accessType
        self.checkedIn = checkedIn
    }
}

/// An access type offered in the walk-in form.
public struct AccessChoice: Sendable, Equatable {
    public var id: String
    public var name: String
    /// Guests may leave and come back (crew, staff passes): never preselected for a walk-in.
    public var reentry: Bool
    /// Guests of the roster holding it.
    public var guests: Int
    /// Whether its validity window includes now.
    public var validNow: Bool

    public init(id: String, name: String, reentry: Bool = false, guests: Int = 0, validNow: Bool = true) {
        self.id = id
        self.name = name
        self.reentry = reentry
        self.guests = guests
        self.validNow = validNow
    }

    /// The type a walk-in form starts on: the event's default type (``CheckInCore/AccessType/defaultID``),
    /// else the single-entry type valid now that most guests hold; none (the operator chooses)
    /// when every type is a re-entry one. Never the alphabetically first by accident: a crew
    /// pass printed on a walk-in's badge lets them in and out all day.
    public static func walkInDefault(_ choices: [AccessChoice]) -> String? {
        let candidates = choices.filter { !$0.reentry && $0.validNow }
        if let general = candidates.first(where: { $0.id == AccessType.defaultID }) { return general.id }
        // The most held; the first listed (by name) among equals.
        return candidates.enumerated().max { ($0.element.guests, -$0.offset) < ($1.element.guests, -$1.offset) }?.element.id
    }
}

import Foundation

/// One upload the hub refused for good, as the operator's list shows it.
public struct RefusedUpload: Sendable, Equatable {
    /// "Check-in Ada Lovelace", "Walk-in W-7K2M…", "Undo …".
    public var what: String
    /// The hub's reason.
    public var reason: String
    /// When the change was recorded, `HH:mm`.
    public var at: String

    public init(what: String, reason: String, at: String) {
        self.what = what
        self.reason = reason
        self.at = at
    }
}
