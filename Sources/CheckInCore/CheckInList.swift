/// Which tickets a door admits and how often, as a ticketing system with orders sets it per
/// door (pretix's check-in list): the products it admits, the date of a series it is for,
/// whether unpaid orders may come in, and the entry rules.
///
/// Source-independent: pretix's lists fill it today; a hub event's own door settings can later.
public struct CheckInList: Sendable, Hashable, Codable {
    /// The source's identifier of the list (pretix: the list's id).
    public var id: String
    public var name: String
    /// The products (pretix items) admitted; `nil` admits every product.
    public var products: Set<String>?
    /// The one date of an event series this list admits; `nil` admits every date.
    public var subevent: String?
    /// Tickets of orders not yet paid may be admitted, when the door confirms it ("admit anyway?").
    public var includesPending: Bool
    /// A ticket may enter any number of times.
    public var allowsMultipleEntries: Bool
    /// A ticket may enter again after an exit.
    public var allowsEntryAfterExit: Bool
    /// Further conditions (pretix's check-in rules) that only the source evaluates for now:
    /// entries on such a list cannot be decided offline.
    public var hasRules: Bool

    public init(id: String, name: String, products: Set<String>? = nil, subevent: String? = nil, includesPending: Bool = false,
                allowsMultipleEntries: Bool = false, allowsEntryAfterExit: Bool = true, hasRules: Bool = false) {
        self.id = id
        self.name = name
        self.products = products
        self.subevent = subevent
        self.includesPending = includesPending
        self.allowsMultipleEntries = allowsMultipleEntries
        self.allowsEntryAfterExit = allowsEntryAfterExit
        self.hasRules = hasRules
    }

    /// Whether the list admits tickets for `product`.
    public func admits(product: String) -> Bool {
        products?.contains(product) ?? true
    }
}
