import CheckInCore

/// What a signed ticket says about itself, once its signature is verified: enough to admit it
/// with no order data on the station (pretix's `pretix_sig1` payload).
public struct SignedTicket: Sendable, Hashable {
    /// The random part that makes the ticket unique (and its secret unguessable).
    public var seed: String
    /// The product, the variation (0 for none) and the date of a series (0 for none), by their ids at the shop.
    public var item: Int64
    public var variation: Int64
    public var subevent: Int64
    /// The ticket's own validity, when it has one.
    public var validFrom: Timestamp?
    public var validUntil: Timestamp?

    public init(seed: String, item: Int64, variation: Int64 = 0, subevent: Int64 = 0, validFrom: Timestamp? = nil, validUntil: Timestamp? = nil) {
        self.seed = seed
        self.item = item
        self.variation = variation
        self.subevent = subevent
        self.validFrom = validFrom
        self.validUntil = validUntil
    }
}
