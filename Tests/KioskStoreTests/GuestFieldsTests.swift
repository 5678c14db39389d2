import CheckInCore
import Foundation
import Testing
@testable import KioskStore

/// The sealed guest record's encoding: a record written before ticket facts existed still reads.
@Suite struct GuestFieldsTests {
    @Test func aRecordOfFourFieldsFromBefore0010ReadsAsATicketWithoutFacts() throws {
        var legacy = Data()
        for field in ["CODE1", "Ana", "ana@example.org", "ACME"] {
            withUnsafeBytes(of: UInt32(field.utf8.count).littleEndian) { legacy.append(contentsOf: $0) }
            legacy.append(contentsOf: field.utf8)
        }
        let fields = try #require(GuestFields(encoded: legacy))
        #expect(fields.name == "Ana" && fields.company == "ACME")
        #expect(fields.facts == TicketFacts())
    }

    @Test func everyFactRoundTripsThroughTheRecord() throws {
        let facts = TicketFacts(validFrom: Timestamp(milliseconds: 1), validUntil: Timestamp(milliseconds: 2), attention: "Lanyard",
                                orderCode: "FAM01", checkedInBefore: Timestamp(milliseconds: -3), refusal: .unpaid, shopTicketID: "4711",
                                badgePrintedElsewhere: Timestamp(milliseconds: 5))
        let fields = GuestFields(code: "C", name: "N", email: "", company: "", facts: facts)
        #expect(GuestFields(encoded: fields.encoded) == fields)
        #expect(fields[.order] == "FAM01" && fields[.checkedInBefore] == "-3")
        #expect(GuestFields(encoded: fields.encoded.dropLast()) == nil, "a truncated record is not read as a shorter one")
    }

    @Test func aRecordOfNineFieldsFromBeforeTheTicketShopsRefusalReadsWithoutOne() throws {
        var old = Data()
        for field in ["CODE1", "Ana", "", "", "Lanyard", "FAM01", "1", "2", ""] {
            withUnsafeBytes(of: UInt32(field.utf8.count).littleEndian) { old.append(contentsOf: $0) }
            old.append(contentsOf: field.utf8)
        }
        let fields = try #require(GuestFields(encoded: old))
        #expect(fields.facts.orderCode == "FAM01" && fields.facts.validUntil == Timestamp(milliseconds: 2) && fields.facts.refusal == nil)
        var facts = fields
        facts.facts.refusal = .blocked
        #expect(GuestFields.facts(encoded: facts.factsEncoded).refusal == .blocked)
        #expect(GuestFields.facts(encoded: fields.factsEncoded).orderCode == "FAM01")
    }

    @Test func aRecordOfTenFieldsFromBeforePretixsTicketIDsReadsWithoutThem() throws {
        var old = Data()
        for field in ["CODE1", "Ana", "", "", "", "ORD1", "", "", "", "blocked"] {
            withUnsafeBytes(of: UInt32(field.utf8.count).littleEndian) { old.append(contentsOf: $0) }
            old.append(contentsOf: field.utf8)
        }
        let fields = try #require(GuestFields(encoded: old))
        #expect(fields.facts.refusal == .blocked && fields.facts.shopTicketID == nil && fields.facts.badgePrintedElsewhere == nil)
    }
}
