import CheckInCore

/// What `checkin-hub import` reports.
public struct ImportSummary: Sendable, Hashable {
    public var imported: Int
    public var updated: Int
    public var unchanged: Int
    /// With `replace`: the codes of guests missing from the new file, revoked by this import.
    public var revokedMissing: [String] = []

    public init(imported: Int, updated: Int, unchanged: Int, revokedMissing: [String] = []) {
        self.imported = imported
        self.updated = updated
        self.unchanged = unchanged
        self.revokedMissing = revokedMissing
    }

    /// What an import compares of a guest to tell a change from a row seen again.
    static func values(name: String, email: String, company: String, typeID: String, revoked: Bool, facts: TicketFacts) -> [String] {
        [name, email, company, typeID, revoked.description, facts.validFrom?.description ?? "", facts.validUntil?.description ?? "",
         facts.attentionNote ?? "", facts.orderCode, facts.checkedInBefore?.description ?? ""]
    }

    /// Counts one roster row (`values`) against what the event held for its code (`old`);
    /// false when the row changes nothing and need not be written.
    mutating func count(_ values: [String], old: [String]?) -> Bool {
        switch old {
        case nil: imported += 1
        case values: unchanged += 1; return false
        default: updated += 1
        }
        return true
    }
}
