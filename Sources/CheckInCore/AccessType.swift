/// A kind of ticket, deciding whether a guest may come back in and when the ticket is valid.
public struct AccessType: Sendable, Hashable, Codable, Identifiable {
    public var id: String
    public var name: String
    /// Re-entry allowed: a guest may enter again after leaving. Otherwise: single entry.
    public var reentry: Bool
    /// Admission is refused before this instant, when set.
    public var validFrom: Timestamp?
    /// Admission is refused after this instant, when set.
    public var validUntil: Timestamp?

    public init(id: String, name: String, reentry: Bool = false, validFrom: Timestamp? = nil, validUntil: Timestamp? = nil) {
        self.id = id
        self.name = name
        self.reentry = reentry
        self.validFrom = validFrom
        self.validUntil = validUntil
    }

    /// Whether `instant` lies inside the validity window (both ends inclusive).
    public func isValid(at instant: Timestamp) -> Bool {
        if let validFrom, instant < validFrom { return false }
        if let validUntil, instant > validUntil { return false }
        return true
    }

    /// The event's default type: what imports make of rows without a ticket type, what the hub
    /// records a walk-in of an unknown type under, and the walk-in form's first choice.
    public static let defaultID = "general"

    /// A stable identifier derived from a ticket-type name, for rosters that only carry names.
    public static func identifier(forName name: String) -> String {
        let folded = SearchText.fold(name)
        let slug = folded.unicodeScalars.map { scalar -> String in
            scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) ? String(scalar) : "-"
        }.joined()
        let collapsed = slug.split(separator: "-", omittingEmptySubsequences: true).joined(separator: "-")
        return collapsed.isEmpty ? defaultID : collapsed
    }
}
