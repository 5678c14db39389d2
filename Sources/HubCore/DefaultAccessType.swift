import CheckInCore

/// The access type a walk-in is recorded under.
///
/// The station's type when the event knows it. Otherwise the event's default type, so a guest
/// already admitted at the door is never lost and no access type is ever created by an upload:
/// the type with id `general` (what imports make of rows without a ticket type), else the
/// first of the event's types by id. `nil` when the event has no access types at all (no
/// roster yet: nothing a station could have chosen from).
public enum DefaultAccessType {
    public static let preferredID = AccessType.defaultID

    public static func resolve(requested: String, known: Set<String>) -> (id: String, review: String?)? {
        if known.contains(requested) { return (requested, nil) }
        let fallback = known.contains(preferredID) ? preferredID : known.min()
        guard let fallback else { return nil }
        return (fallback, "unknown access type; recorded under the event's default type \(fallback)")
    }
}
