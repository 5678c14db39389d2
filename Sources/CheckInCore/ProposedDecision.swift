/// Answers a door gives for tickets of a ticketing system with orders that none of the
/// station's ``Decision``s expresses yet, proposed with their names and exit codes.
///
/// They become cases of ``Decision`` (and ``Decision/Kind``) when the station decides them
/// (unpaid and unapproved did, as 16 and 17). Their exit codes follow the decisions' 10–17 and
/// collide with no other status of `kiosk` (README).
public enum ProposedDecision: Sendable, Hashable {
    /// Several tickets hold this code: the door cannot tell which.
    case ambiguous(count: Int)
    /// Only the ticketing system can decide this entry for now (list rules, questions to ask).
    case needsOnline(OnlineOnlyCheck)

    public var kind: Kind {
        switch self {
        case .ambiguous: .ambiguous
        case .needsOnline: .needsOnline
        }
    }

    /// The stable names, as ``Decision/Kind`` spells its own.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        case ambiguous
        case needsOnline = "needs_online"

        /// The exit status `kiosk checkin` will give it.
        public var exitCode: Int32 {
            switch self {
            case .ambiguous: 18
            case .needsOnline: 19
            }
        }
    }
}
