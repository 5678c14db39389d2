import CheckInCore
import Foundation
import PretixClient
import SignedTickets
import Testing

@testable import PretixSync

/// A verified signed ticket as the list's guest (``PretixSignedTickets``, a pure value), and the
/// withdrawn secrets kept from pretix's deltas.
struct PretixSignedTicketsTests {
    static let code = TicketCode(normalizing: "E4BibyTSylQOgeKjuMPiTDxi5HX", caseInsensitive: false)!
    static let ticket = SignedTicket(seed: "CTJqJOl1H", item: 1, subevent: 14, validFrom: Timestamp(milliseconds: 1_000),
                                     validUntil: Timestamp(milliseconds: 2_000))

    static func tickets(limit: [Int] = [], subevent: Int? = nil) throws -> PretixSignedTickets {
        PretixSignedTickets(keys: ["k"], list: try PretixRosterTests.list(limit: limit, subevent: subevent))
    }

    static func entry(_ secret: String, at text: String, blocked: Bool? = nil) -> PretixSecretEntry {
        PretixSecretEntry(id: 1, secret: secret, created: blocked == nil ? PretixTime(text) : nil, updated: blocked == nil ? nil : PretixTime(text),
                          blocked: blocked)
    }

    @Test func aValidTicketIsANamelessGuestOfItsProductWithinItsOwnWindow() throws {
        let guest = try Self.tickets().guest(code: Self.code, ticket: Self.ticket)
        #expect(guest.id == Self.code.value && guest.code == Self.code && guest.name.isEmpty && !guest.revoked)
        #expect(guest.accessTypeID == PretixRoster.accessTypeID(item: 1))
        #expect(guest.facts.validFrom == Timestamp(milliseconds: 1_000) && guest.facts.validUntil == Timestamp(milliseconds: 2_000))
        #expect(guest.facts.orderCode.isEmpty, "no order: the download's guest replaces it")
    }

    @Test func refusalsComeInPretixsOrderRevokedBlockedProductDate() throws {
        var tickets = try Self.tickets(limit: [2], subevent: 15)
        #expect(tickets.guest(code: Self.code, ticket: Self.ticket).facts.refusal == .product)
        tickets.limitProducts = [1]
        #expect(tickets.guest(code: Self.code, ticket: Self.ticket).facts.refusal == .otherDate)
        tickets.take(blocked: [Self.entry(Self.code.value, at: "2026-11-29T08:00:00Z", blocked: true)])
        #expect(tickets.guest(code: Self.code, ticket: Self.ticket).facts.refusal == .blocked)
        tickets.take(revoked: [Self.entry(Self.code.value, at: "2026-11-29T08:00:00Z")])
        let revoked = tickets.guest(code: Self.code, ticket: Self.ticket)
        #expect(revoked.revoked && revoked.facts.refusal == nil, "pretix's reason: revoked")
    }

    @Test func aLaterUnblockLiftsABlockAndTheDeltasCursorsAdvance() throws {
        var tickets = try Self.tickets()
        tickets.take(blocked: [Self.entry("s", at: "2026-11-29T09:00:00Z", blocked: false), Self.entry("s", at: "2026-11-29T08:00:00Z", blocked: true)])
        #expect(tickets.blocked.isEmpty && tickets.blockedSince?.text == "2026-11-29T09:00:00Z")
        tickets.take(revoked: [Self.entry("a", at: "2026-11-29T10:00:00Z"), Self.entry("b", at: "2026-11-29T07:00:00Z")])
        #expect(tickets.revoked == ["a", "b"] && tickets.revokedSince?.text == "2026-11-29T10:00:00Z")
        tickets.take(revoked: [])
        #expect(tickets.revokedSince?.text == "2026-11-29T10:00:00Z", "an empty delta keeps the cursor")
    }
}
