import CheckInCore
import Foundation
import KioskStore
import PretixClient
import Testing
@testable import PretixSync

/// pretix's orders as the station's roster for one list (``PretixRoster``, a pure value):
/// who is refused and why, what the list leaves out, and whose check-ins come along.
struct PretixRosterTests {
    static func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(json.utf8))
    }

    static func list(includePending: Bool = false, multiple: Bool = false, limit: [Int] = [], subevent: Int? = nil) throws -> PretixCheckInList {
        try decode(PretixCheckInList.self, """
            {"id": 2, "name": "Paid only", "all_products": \(limit.isEmpty), "limit_products": \(limit), "include_pending": \(includePending),
             "allow_multiple_entries": \(multiple), "subevent": \(subevent.map(String.init) ?? "null")}
            """)
    }

    static let items: [PretixItem] = [
        try! decode(PretixItem.self, #"{"id": 1, "name": {"en": "General admission"}, "active": true, "admission": true, "checkin_attention": false, "variations": []}"#),
        try! decode(PretixItem.self, #"{"id": 2, "name": "VIP", "active": true, "admission": true, "checkin_attention": true, "checkin_text": "Lanyard", "variations": []}"#),
    ]

    /// An order of one position of product `item`, with pretix's fields as its API gives them.
    static func order(_ code: String, status: String = "p", approval: Bool = false, validIfPending: Bool = false, item: Int = 1,
                      blocked: Bool = false, canceledPosition: Bool = false, checkins: String = "[]", subevent: Int? = nil) throws -> PretixOrder {
        try decode(PretixOrder.self, """
            {"code": "\(code)", "status": "\(status)", "require_approval": \(approval), "valid_if_pending": \(validIfPending),
             "datetime": "2026-11-20T10:00:00Z", "last_modified": "2026-11-20T10:00:00Z",
             "positions": [{"id": 7, "order": "\(code)", "positionid": 1, "item": \(item), "secret": "s3cr3t\(code)", "subevent": \(subevent.map(String.init) ?? "null"),
                            "attendee_name": "Ada \(code)", "blocked": \(blocked ? #"["admin"]"# : "null"), "canceled": \(canceledPosition),
                            "checkins": \(checkins)}]}
            """)
    }

    func guest(_ order: PretixOrder, list: PretixCheckInList? = nil) throws -> Guest? {
        try PretixRoster(list: list ?? Self.list(), items: Self.items, deviceID: 5).delta([order], cursor: "c", withAccessTypes: true).guests.first
    }

    @Test func ticketsPretixWouldNotAdmitAreRevokedWithPretixsReason() throws {
        #expect(try guest(Self.order("PAID"))?.revoked == false)
        let cases: [(PretixOrder, TicketRefusal)] = [
            (try Self.order("CANC", status: "c"), .canceled), (try Self.order("POSC", canceledPosition: true), .canceled),
            (try Self.order("EXPI", status: "e"), .expired), (try Self.order("BLOC", blocked: true), .blocked),
            (try Self.order("APPR", status: "n", approval: true), .unapproved), (try Self.order("PEND", status: "n"), .unpaid),
        ]
        for (order, refusal) in cases {
            let guest = try #require(try guest(order))
            #expect(guest.revoked && guest.facts.refusal == refusal, "\(order.code)")
        }
    }

    @Test func anUnpaidOrderIsLeftToTheDoorWhereTheListIncludesPendingAndAdmittedWherePretixSaysValidBeforePayment() throws {
        let pending = try #require(try guest(Self.order("PEND", status: "n"), list: Self.list(includePending: true)))
        #expect(!pending.revoked && pending.facts.refusal == .unpaid, "not revoked: the door asks \"admit anyway?\"")
        let valid = try #require(try guest(Self.order("VALP", status: "n", validIfPending: true)))
        #expect(!valid.revoked && valid.facts.refusal == nil)
        #expect(try guest(Self.order("APPR", status: "n", approval: true), list: Self.list(includePending: true))?.facts.refusal == .unapproved)
    }

    @Test func aProductTheListDoesNotAdmitIsRefusedAsNotValidHereAndReentryFollowsMultipleEntries() throws {
        let vipOnly = try Self.list(limit: [2])
        let general = try #require(try guest(Self.order("GENR", item: 1), list: vipOnly))
        #expect(general.revoked && general.facts.refusal == .product)
        let roster = PretixRoster(list: vipOnly, items: Self.items, deviceID: 5)
        let generalType = try #require(roster.accessTypes.first { $0.id == general.accessTypeID })
        #expect(CheckInRules.decide(.init(deviceID: "d", at: .now()), guest: general, accessType: generalType, admissions: [])
                == .notValidHere(accessType: "General admission"))
        let vip = try #require(try guest(Self.order("VIPS", item: 2), list: vipOnly))
        #expect(!vip.revoked && vip.accessTypeID == PretixRoster.accessTypeID(item: 2) && vip.facts.attention == "Special attention. Lanyard")
        #expect(roster.accessTypes.map(\.name) == ["General admission", "VIP"] && roster.accessTypes.allSatisfy { !$0.reentry })
        #expect(PretixRoster(list: try Self.list(multiple: true), items: Self.items, deviceID: 5).accessTypes.allSatisfy(\.reentry))
    }

    @Test func onAListForOneDateOfASeriesTicketsForOtherDatesAreRefusedAsAnotherDate() throws {
        let saturday = try Self.list(subevent: 11)
        #expect(try guest(Self.order("SAT1", subevent: 11), list: saturday)?.revoked == false)
        let sunday = try #require(try guest(Self.order("SUN1", subevent: 12), list: saturday))
        #expect(sunday.revoked && sunday.facts.refusal == .otherDate, "another date's ticket is not this door's")
        #expect(CheckInRules.decide(.init(deviceID: "d", at: .now()), guest: sunday, accessType: nil, admissions: [])
                == .notValidHere(accessType: "another date of the event"))
        #expect(try guest(Self.order("SUN2", subevent: 12))?.revoked == false, "a list for every date takes every date's tickets")
    }

    @Test func otherDevicesCheckInsOnThisListComeAlongAndTheStationsOwnDoNot() throws {
        let checkins = """
            [{"id": 1, "list": 2, "datetime": "2026-11-28T08:00:00Z", "type": "entry", "device_id": 9},
             {"id": 2, "list": 2, "datetime": "2026-11-28T08:01:00Z", "type": "exit", "device_id": 5},
             {"id": 3, "list": 3, "datetime": "2026-11-28T08:02:00Z", "type": "entry", "device_id": 9},
             {"id": 4, "list": 2, "datetime": "2026-11-28T08:03:00Z", "type": "entry"}]
            """
        let delta = PretixRoster(list: try Self.list(), items: Self.items, deviceID: 5).delta([try Self.order("SEEN", checkins: checkins)], cursor: "c",
                                                                                             withAccessTypes: false)
        #expect(delta.checkIns.map(\.deviceID) == ["pretix-device-9", "pretix"])
        #expect(delta.checkIns.allSatisfy { $0.guestID == "s3cr3tSEEN" && $0.direction == .entry })
        #expect(delta.accessTypes.isEmpty && delta.nextCursor == "c")
    }

    @Test func aScansNonceIsItsCheckInKeyInPretixsAlphabet() {
        let key = IdempotencyKey(deviceID: "d052ba24-36ed", guestID: "s3cr3t/x", scannedAt: Timestamp(milliseconds: 1_795_851_905_666))
        #expect(PretixSync.nonce(key).value == "d052ba24-36ed_s3cr3t_x_1795851905666")
        #expect(PretixSync.nonce(key) == PretixSync.nonce(key), "every attempt and the undo send the same nonce")
    }
}
