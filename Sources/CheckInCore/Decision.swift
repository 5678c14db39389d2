/// The answer to one presented code.
public enum Decision: Sendable, Hashable {
    /// Let the guest in.
    case admitted
    /// Admitted moments ago (within the tolerance window), possibly at another station:
    /// the same admission, shown as information.
    case duplicate(previous: PriorCheckIn)
    /// A single-entry ticket already used, beyond the tolerance window.
    case alreadyCheckedIn(previous: PriorCheckIn)
    /// No guest holds this code (or the input was not a code at all).
    case unknownCode
    /// The guest's access type is not admitted at this station.
    case notValidHere(accessType: String)
    /// The ticket is not valid at this time.
    case outsideWindow(validFrom: Timestamp?, validUntil: Timestamp?)
    /// The ticket was cancelled, refunded or transferred.
    case revoked
    /// The ticket shop says the order is not paid. `admitAnyway`: staff may admit it after
    /// confirming (pretix's list includes pending orders).
    case unpaid(admitAnyway: Bool)
    /// The ticket shop says the order awaits the organizer's approval.
    case unapproved
    /// Only the ticket shop decides this entry (its list's rules, questions to ask) and it did
    /// not answer in time: refused, nothing recorded; scan again once it answers.
    case needsOnline(OnlineOnlyCheck)
    /// The ticket shop's list rules refused the entry ("Maximum number of entries exceeded"),
    /// in the shop's words when it gave them.
    case listRules(explanation: String?)
    /// The entry is admitted once the ticket's questions at the door are answered (a waiver, a
    /// session): nothing recorded yet; the same code again with the answers.
    case questions(QuestionsAtTheDoor)

    /// The stable name used in JSON, exit codes and logs.
    public var kind: Kind {
        switch self {
        case .admitted: .admitted
        case .duplicate: .duplicate
        case .alreadyCheckedIn: .alreadyCheckedIn
        case .unknownCode: .unknownCode
        case .notValidHere: .notValidHere
        case .outsideWindow: .outsideWindow
        case .revoked: .revoked
        case .unpaid: .unpaid
        case .unapproved: .unapproved
        case .needsOnline: .needsOnline
        case .listRules: .listRules
        case .questions: .questions
        }
    }

    /// The earlier check-in this decision refers to, if any.
    public var previous: PriorCheckIn? {
        switch self {
        case .duplicate(let previous), .alreadyCheckedIn(let previous): previous
        default: nil
        }
    }

    /// Whether the guest may pass (a duplicate is the same, earlier admission: they are in).
    public var letsGuestIn: Bool {
        switch self {
        case .admitted, .duplicate: true
        default: false
        }
    }

    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        case admitted
        case duplicate
        case alreadyCheckedIn = "already_checked_in"
        case unknownCode = "unknown_code"
        case notValidHere = "not_valid_here"
        case outsideWindow = "outside_window"
        case revoked
        case unpaid
        case unapproved
        case needsOnline = "needs_online"
        case listRules = "rules"
        case questions

        /// Process exit status of `kiosk checkin` for this decision; documented in the README.
        public var exitCode: Int32 {
            switch self {
            case .admitted: 0
            case .duplicate: 10
            case .alreadyCheckedIn: 11
            case .unknownCode: 12
            case .notValidHere: 13
            case .outsideWindow: 14
            case .revoked: 15
            case .unpaid: 16
            case .unapproved: 17
            case .needsOnline: 19
            case .listRules: 20
            case .questions: 21
            }
        }
    }
}
