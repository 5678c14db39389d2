import CheckInCore
import Foundation
import GRDB

/// A row of `guests` as stored (0009_sealed_guest_record.sql): the code's keyed digest, the
/// attendee fields sealed in one record, and the plain columns the rules need.
///
/// A walk-in is inserted with GRDB's `insert`; the other writes bind ``rowArguments`` to a
/// prepared statement (``RosterStore/sealedGuestInsertSQL``, ``RosterStore/sealedGuestUpsertSQL``):
/// an upsert by id only, and no per-row encoding in bulk. Reads open the record in SQL
/// (``OpenedGuestRecord``), inside the transactions that decide.
struct GuestRecord: Codable, FetchableRecord, PersistableRecord, Sendable, Equatable {
    static let databaseTableName = "guests"

    var id: String
    /// The ticket code's keyed digest (``GuestCipher/codeDigest(_:)``), looked up exactly.
    var code: Data
    /// The order code's keyed digest (``GuestCipher/orderDigest(_:)``), nil without an order.
    var orderDigest: Data?
    /// ``GuestFields`` sealed.
    var sealed: Data
    var accessTypeID: String
    var revoked: Bool
    var walkIn: Bool
    /// Milliseconds since 1970.
    var updatedAt: Int64
    /// Whether the hub sent this guest (a local walk-in not yet known to it is not).
    var fromHub: Bool
    /// The hub's id of the guest, sealed; `nil` when it is the ticket code, or for a guest no
    /// hub knows (``HubGuestIDs``).
    var hubID: Data?

    enum CodingKeys: String, CodingKey, ColumnExpression {
        case id, code, sealed, revoked
        case accessTypeID = "access_type_id"
        case walkIn = "walk_in"
        case updatedAt = "updated_at"
        case fromHub = "from_hub"
        case orderDigest = "order_digest"
        case hubID = "hub_id"
    }

    init(_ guest: Guest, sealed: SealedGuest, updatedAt: Timestamp, fromHub: Bool, hubID: Data? = nil) {
        id = guest.id
        code = sealed.codeDigest
        orderDigest = sealed.orderDigest
        self.sealed = sealed.record
        accessTypeID = guest.accessTypeID
        revoked = guest.revoked
        walkIn = guest.walkIn
        self.updatedAt = updatedAt.milliseconds
        self.fromHub = fromHub
        self.hubID = hubID
    }

    /// A guest sealed on its own (single writes; their trigger computes the search tokens).
    init(_ guest: Guest, sealingWith cipher: GuestCipher, updatedAt: Timestamp, fromHub: Bool, hubID: Data? = nil) {
        let fields = GuestFields(guest)
        self.init(guest, sealed: SealedGuest(codeDigest: cipher.codeDigest(fields.code), orderDigest: cipher.orderDigest(fields.facts.orderCode), record: cipher.seal(fields), tokens: ""),
                  updatedAt: updatedAt, fromHub: fromHub, hubID: hubID)
    }

    /// The columns ``rowArguments`` fill, in their order.
    static let rowColumns = "id, code, sealed, access_type_id, revoked, walk_in, updated_at, from_hub, order_digest, hub_id"

    /// The row's values, in the order of ``rowColumns``
    /// (``RosterStore/sealedGuestInsertSQL``, ``RosterStore/sealedGuestUpsertSQL``).
    var rowArguments: StatementArguments {
        [id, code, sealed, accessTypeID, revoked, walkIn, updatedAt, fromHub, orderDigest, hubID]
    }
}
