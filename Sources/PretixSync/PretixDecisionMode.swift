/// Whose word the door takes first at a pretix station.
public enum PretixDecisionMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// The station decides at once on its copy; pretix learns of it moments later (the default:
    /// feedback never waits for the network).
    case localFirst = "local-first"
    /// pretix is asked first (`checkinrpc/redeem`); when it has not answered within the budget,
    /// the station decides on its copy with the same nonce.
    case onlineFirst = "online-first"
}
