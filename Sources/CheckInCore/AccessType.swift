/// A kind of ticket, deciding whether a guest may come back in and when the ticket is valid.
public struct AccessType: Sendable, Hashable, Codable, Identifiable {
    public var id: String
    public var name: String
    /// Re-entry allowed: a guest may enter again after leaving. Otherwise: single entry.
    public var reentry: Bool
    /// For a single-entry ticket: an exit lets the guest in once more (one stay at a time, not
    /// one entry; pretix's "allow entry after exit"). Ignored with ``reentry``.
    public var entryAfterExit: Bool
    /// Admission is refused before this instant, when set.
    public var validFrom: Timestamp?
    /// Admission is refused after this instant, when set.
    public var validUntil: Timestamp?

    public init(id: String, name: String, reentry: Bool = false, entryAfterExit: Bool = false, validFrom: Timestamp? = nil,
                validUntil: Timestamp? = nil) {
        self.id = id
        self.name = name
        self.reentry = reentry
        self.entryAfterExit = entryAfterExit
        self.validFrom = validFrom
        self.validUntil = validUntil
    }

    private enum CodingKeys: String, CodingKey { case id, name, reentry, entryAfterExit, validFrom, validUntil }

    /// A peer that predates ``entryAfterExit`` sends none: single entry means one entry.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        reentry = try container.decode(Bool.self, forKey: .reentry)
        entryAfterExit = try container.decodeIfPresent(Bool.self, forKey: .entryAfterExit) ?? false
        validFrom = try container.decodeIfPresent(Timestamp.self, forKey: .validFrom)
        validUntil = try container.decodeIfPresent(Timestamp.self, forKey: .validUntil)
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
