/// Answers a door gives for tickets of a ticketing system with orders that none of the
/// station's ``Decision``s expresses yet, proposed with their names and exit codes.
///
/// They become cases of ``Decision`` (and ``Decision/Kind``) when the station decides them
/// (unpaid and unapproved did, as 16 and 17; needs_online as 19). Their exit codes follow the
/// decisions' 10–20 and collide with no other status of `kiosk` (README).
public enum ProposedDecision: Sendable, Hashable {
    /// Several tickets hold this code: the door cannot tell which.
    case ambiguous(count: Int)

    public var kind: Kind {
        switch self {
        case .ambiguous: .ambiguous
        }
    }

    /// The stable names, as ``Decision/Kind`` spells its own.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        case ambiguous

        /// The exit status `kiosk checkin` will give it.
        public var exitCode: Int32 {
            switch self {
            case .ambiguous: 18
            }
        }
    }
}
