import CheckInCore
import KioskStore
import PretixClient
import SignedTickets

/// What a station needs to admit pretix's signed tickets (`pretix_sig1`) with no order data:
/// the event's keys, what the check-in list admits, and the secrets pretix withdrew. Kept sealed
/// beside the link (`pretix-signed.json`) so a station started offline has it, and refreshed at
/// every pull: the keys and the list once per process, the withdrawn secrets as pretix's deltas.
public struct PretixSignedTickets: Codable, Sendable, Equatable {
    /// The keys as pretix lists them (`valid_keys.pretix_sig1`: base64 of a PEM public key).
    public var keys: [String]
    public var allProducts: Bool
    public var limitProducts: [Int]
    /// The date of a series the list is for, if any.
    public var subevent: Int?
    /// Secrets pretix replaced (a canceled order's ticket, a regenerated secret) and blocked.
    public var revoked: Set<String> = []
    public var blocked: Set<String> = []
    /// pretix's times of the newest revocation and block change read: the next pull asks for those from then on.
    public var revokedSince: PretixTime?
    public var blockedSince: PretixTime?

    public init(keys: [String], list: PretixCheckInList) {
        self.init(keys: keys, allProducts: list.allProducts, limitProducts: list.limitProducts, subevent: list.subevent)
    }

    public init(keys: [String], allProducts: Bool, limitProducts: [Int] = [], subevent: Int? = nil) {
        self.keys = keys
        self.allProducts = allProducts
        self.limitProducts = limitProducts
        self.subevent = subevent
    }

    /// The event's keys and this list, with the withdrawn secrets kept so far.
    func with(keys: [String], list: PretixCheckInList) -> PretixSignedTickets {
        var next = self
        next.keys = keys
        next.allProducts = list.allProducts
        next.limitProducts = list.limitProducts
        next.subevent = list.subevent
        return next
    }

    /// The keys a ticket may verify against (those this release cannot read are left out).
    public var signingKeys: [TicketSigningKey] { keys.compactMap(TicketSigningKey.init(pretixListed:)) }

    /// pretix's revoked-secret entries (newest first or not) taken in.
    mutating func take(revoked entries: [PretixSecretEntry]) {
        for entry in entries { revoked.insert(entry.secret) }
        if let newest = entries.compactMap(\.created).max(by: { $0.timestamp < $1.timestamp }),
           revokedSince.map({ $0.timestamp < newest.timestamp }) ?? true {
            revokedSince = newest
        }
    }

    /// pretix's block changes taken in, oldest first: a later unblock lifts an earlier block.
    mutating func take(blocked entries: [PretixSecretEntry]) {
        for entry in entries.sorted(by: { ($0.updated?.timestamp ?? Timestamp(milliseconds: 0)) < ($1.updated?.timestamp ?? Timestamp(milliseconds: 0)) }) {
            if entry.blocked == false { blocked.remove(entry.secret) } else { blocked.insert(entry.secret) }
        }
        if let newest = entries.compactMap(\.updated).max(by: { $0.timestamp < $1.timestamp }),
           blockedSince.map({ $0.timestamp < newest.timestamp }) ?? true {
            blockedSince = newest
        }
    }

    /// A verified signed ticket as a guest of the list's roster, so the door decides it as any
    /// other ticket: nameless (no order data), of its product's access type, within its own
    /// validity; refused, in pretix's order, when its secret was revoked or blocked, when the
    /// list does not admit its product, or when it is for another date of a series.
    public func guest(code: TicketCode, ticket: SignedTicket) -> Guest {
        let item = Int(clamping: ticket.item)
        var revoked = false
        var refusal: TicketRefusal?
        if self.revoked.contains(code.value) {
            revoked = true
        } else if blocked.contains(code.value) {
            refusal = .blocked
        } else if !allProducts && !limitProducts.contains(item) {
            refusal = .product
        } else if let subevent, Int64(subevent) != ticket.subevent {
            refusal = .otherDate
        }
        return Guest(id: code.value, code: code, name: "", email: "", company: "", accessTypeID: PretixRoster.accessTypeID(item: item),
                     revoked: revoked || refusal != nil,
                     facts: TicketFacts(validFrom: ticket.validFrom, validUntil: ticket.validUntil, refusal: refusal))
    }
}

extension PretixLinkFile where Contents == PretixSignedTickets {
    /// The signed-ticket keys and withdrawn secrets of a station linked to a pretix event with signed tickets.
    public init(database: KioskDatabase) { self.init(database: database, name: "pretix-signed.json") }
}
