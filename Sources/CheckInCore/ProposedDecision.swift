/// Answers a door gives for tickets of a ticketing system with orders that none of the
/// station's ``Decision``s expresses yet, proposed with their names and exit codes.
///
/// They become cases of ``Decision`` (and ``Decision/Kind``) when the station's pretix source is
/// wired in: that touches every exhaustive reader of decisions (the console's result panel,
/// `kiosk checkin`'s messages, the hub's notices), which this step leaves alone. Their exit codes
/// follow the decisions' 10–15 and collide with no other status of `kiosk` (README).
public enum ProposedDecision: Sendable, Hashable {
    /// The order is not paid. `admitAnyway`: staff may admit it after confirming (the list
    /// includes pending orders).
    case unpaid(admitAnyway: Bool)
    /// The order awaits the organizer's approval.
    case unapproved
    /// Several tickets hold this code: the door cannot tell which.
    case ambiguous(count: Int)
    /// Only the ticketing system can decide this entry for now (list rules, questions to ask).
    case needsOnline(OnlineOnlyCheck)

    public var kind: Kind {
        switch self {
        case .unpaid: .unpaid
        case .unapproved: .unapproved
        case .ambiguous: .ambiguous
        case .needsOnline: .needsOnline
        }
    }

    /// The stable names, as ``Decision/Kind`` spells its own.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        case unpaid
        case unapproved
        case ambiguous
        case needsOnline = "needs_online"

        /// The exit status `kiosk checkin` will give it.
        public var exitCode: Int32 {
            switch self {
            case .unpaid: 16
            case .unapproved: 17
            case .ambiguous: 18
            case .needsOnline: 19
            }
        }
    }
}
