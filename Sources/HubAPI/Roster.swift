import CheckInCore

/// A guest as the hub sends it. Revocation is a change of ``revoked``; removal from the roster
/// is listed in ``RosterPage/deletedGuestIDs`` instead.
public struct RosterGuest: Sendable, Hashable, Codable {
    public var id: String
    /// The normalized ticket code (``CheckInCore/TicketCode/value``).
    public var code: String
    public var name: String
    public var email: String
    public var company: String
    public var accessTypeID: String
    public var revoked: Bool
    public var walkIn: Bool
    /// Set on walk-ins whose e-mail matches another registration: left for the organizer to review.
    public var possibleDuplicateOf: String?
    /// The ticket's own window, staff note, order and earlier check-in, from the imported
    /// export; each absent when the export said nothing (additive: older hubs send none).
    public var validFrom: Timestamp?
    public var validUntil: Timestamp?
    public var attention: String?
    public var orderCode: String?
    public var checkedInBefore: Timestamp?

    public init(
        id: String, code: String, name: String, email: String = "", company: String = "", accessTypeID: String,
        revoked: Bool = false, walkIn: Bool = false, possibleDuplicateOf: String? = nil, facts: TicketFacts = TicketFacts()
    ) {
        validFrom = facts.validFrom
        validUntil = facts.validUntil
        attention = facts.attentionNote
        orderCode = facts.orderCode.isEmpty ? nil : facts.orderCode
        checkedInBefore = facts.checkedInBefore
        self.id = id
        self.code = code
        self.name = name
        self.email = email
        self.company = company
        self.accessTypeID = accessTypeID
        self.revoked = revoked
        self.walkIn = walkIn
        self.possibleDuplicateOf = possibleDuplicateOf
    }

    public init(_ guest: Guest, possibleDuplicateOf: String? = nil) {
        self.init(
            id: guest.id, code: guest.code.value, name: guest.name, email: guest.email, company: guest.company,
            accessTypeID: guest.accessTypeID, revoked: guest.revoked, walkIn: guest.walkIn,
            possibleDuplicateOf: possibleDuplicateOf, facts: guest.facts)
    }

    /// The domain value (the code is taken as already normalized).
    public var guest: Guest {
        Guest(
            id: id, code: TicketCode(stored: code), name: name, email: email, company: company,
            accessTypeID: accessTypeID, revoked: revoked, walkIn: walkIn, facts: facts)
    }

    public var facts: TicketFacts {
        TicketFacts(validFrom: validFrom, validUntil: validUntil, attention: attention, orderCode: orderCode ?? "", checkedInBefore: checkedInBefore)
    }
}

/// An access type as the hub sends it: the domain type itself (its Codable form is the wire
/// schema `RosterAccessType` in openapi.yaml).
public typealias RosterAccessType = AccessType

/// A check-in recorded by the hub (from any station), as sent in roster pages so a station can
/// answer "already checked in by Alex at Door 2, 19:41" while offline.
public struct RosterCheckIn: Sendable, Hashable, Codable {
    public var key: IdempotencyKey
    public var station: String
    public var operatorName: String
    public var source: CheckInSource
    public var direction: Direction
    /// Undone later (by support staff or the station): no longer counts as an admission.
    public var undone: Bool

    public init(key: IdempotencyKey, station: String, operatorName: String, source: CheckInSource, direction: Direction, undone: Bool = false) {
        self.key = key
        self.station = station
        self.operatorName = operatorName
        self.source = source
        self.direction = direction
        self.undone = undone
    }

    public var checkIn: CheckIn {
        CheckIn(key: key, station: station, operatorName: operatorName, source: source, direction: direction)
    }
}

/// `GET /v1/events/{event}/roster?cursor=N&limit=M[&wait=S]` answer: the changes after `cursor`
/// (with `wait`, possibly after holding the request until there are some; see ``HubPaths/roster(event:)``).
///
/// Start with no cursor (or `0`) for a full pull; store ``cursor`` after applying the page and
/// send it back for the next page, now or after a restart. Keep pulling while ``hasMore``.
/// The cursor is a change sequence number issued by the hub, never a wall-clock time, so no
/// change is skipped whatever the clocks say. An item may appear again in a later page when it
/// changed again: apply pages in order, later wins.
public struct RosterPage: Sendable, Hashable, Codable {
    /// Send this back as `cursor` for the next page.
    public var cursor: Int64
    /// More changes are waiting beyond ``cursor``.
    public var hasMore: Bool
    public var accessTypes: [RosterAccessType]
    /// New or changed guests (revocations included).
    public var guests: [RosterGuest]
    /// Guests removed from the roster.
    public var deletedGuestIDs: [String]
    /// New check-ins and undos, from every station of the event (the caller's own included).
    public var checkIns: [RosterCheckIn]
    /// Walk-ins an organizer merged into a registration (each also listed in ``deletedGuestIDs``,
    /// which is all a station older than this field acts on). A station moves the walk-in's
    /// check-ins and queued changes to the registration before it forgets the walk-in. Absent
    /// from hubs before this field existed.
    public var merges: [GuestMerge]?

    public init(
        cursor: Int64, hasMore: Bool, accessTypes: [RosterAccessType] = [], guests: [RosterGuest] = [],
        deletedGuestIDs: [String] = [], checkIns: [RosterCheckIn] = [], merges: [GuestMerge]? = nil
    ) {
        self.merges = merges
        self.cursor = cursor
        self.hasMore = hasMore
        self.accessTypes = accessTypes
        self.guests = guests
        self.deletedGuestIDs = deletedGuestIDs
        self.checkIns = checkIns
    }

    /// No change at all: what a long-poll answers when its wait is over (the cursor is the one sent).
    public var isEmpty: Bool {
        !hasMore && accessTypes.isEmpty && guests.isEmpty && deletedGuestIDs.isEmpty && checkIns.isEmpty && (merges ?? []).isEmpty
    }
}
