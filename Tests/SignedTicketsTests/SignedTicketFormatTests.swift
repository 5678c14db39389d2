import CheckInCore
import Crypto
import Foundation
import SignedTickets
import Testing

struct SignedTicketFormatTests {
    /// libpretixsync's `AsyncCheckProviderTest.testSignedAndValid`: a ticket of event1.json's
    /// first key (item 1, subevent 14); the second key is another event's.
    static let vector = "E4BibyTSylQOgeKjuMPiTDxi5HXPuTVsx1qCli3IL0143gj0EZXOB9iQInANxRFJTt4Pf9nXnHdB91Qk/RN0L5AIBABSxw2TKFnSUNUCKAEAPAQA"
    static let signingKey = TicketSigningKey(pretixListed: """
        LS0tLS1CRUdJTiBQVUJMSUMgS0VZLS0tLS0KTUNvd0JRWURLMlZ3QXlFQTdBRDcvdkZBMzNFc1k0ejJQSHI3aVpQc1o4bjVkaDBhalA4Z3l6Tm1tSXM9Ci0tLS0tRU5EIFBVQkxJQyBLRVktLS0tLQo=
        """)!
    static let otherKey = TicketSigningKey(pretixListed: """
        LS0tLS1CRUdJTiBQVUJMSUMgS0VZLS0tLS0KTUNvd0JRWURLMlZ3QXlFQVlNSnNPbkxwNUFXR3BKK2RGSkUycjlET1hlUUlaZ1ZyQ3Q5M0xBbDVCTjg9Ci0tLS0tRU5EIFBVQkxJQyBLRVktLS0tLQo=
        """)!

    @Test func pretixsTestVectorVerifiesWithItsKeyAndReadsItsTicket() {
        #expect(SignedTicketFormat.check(Self.vector, keys: [Self.signingKey, Self.otherKey])
                == .valid(SignedTicket(seed: "CTJqJOl1H", item: 1, subevent: 14)))
        // After a key change the event lists both: any of them may have signed.
        #expect(SignedTicketFormat.check(Self.vector, keys: [Self.otherKey, Self.signingKey]) != .forged)
    }

    @Test func aTicketNoListedKeySignedIsForged() {
        // The key that signed it retired (no longer listed), or another event's ticket.
        #expect(SignedTicketFormat.check(Self.vector, keys: [Self.otherKey]) == .forged)
        #expect(SignedTicketFormat.check(Self.vector, keys: []) == .forged)
    }

    @Test func everyFlippedBitOfTheTicketIsRefused() throws {
        var raw = try #require(Data(base64Encoded: String(Self.vector.reversed())))
        for index in 5 ..< raw.count {  // payload and signature; a changed header is no signed code at all
            raw[index] ^= 0x01
            let code = String(raw.base64EncodedString().reversed())
            #expect(SignedTicketFormat.check(code, keys: [Self.signingKey]) == .forged, "byte \(index)")
            raw[index] ^= 0x01
        }
    }

    @Test func ordinaryCodesAreNotSigned() {
        for code in ["", "ABC123", "Ticket-0001", "no such ticket", String(repeating: "A", count: 600), "AQAPAEA", "%%%%%%%%"] {
            #expect(SignedTicketFormat.check(code, keys: [Self.signingKey]) == .notSigned, "\(code)")
        }
    }

    @Test func aTicketsOwnValidityIsRead() throws {
        let key = Curve25519.Signing.PrivateKey()
        // seed "s1", item 7, variation 2, subevent 0, valid from 1_800_000_000 until 1_800_003_600 (seconds).
        let payload = Data([0x0A, 0x02, 0x73, 0x31, 0x10, 0x07, 0x18, 0x02]) + field(5, 1_800_000_000) + field(6, 1_800_003_600)
        let code = try sign(payload, with: key)
        #expect(SignedTicketFormat.check(code, keys: [TicketSigningKey(key.publicKey)]) == .valid(SignedTicket(
            seed: "s1", item: 7, variation: 2, validFrom: Timestamp(milliseconds: 1_800_000_000_000),
            validUntil: Timestamp(milliseconds: 1_800_003_600_000))))
    }

    @Test func aSignedPayloadThatIsNoTicketIsRefused() throws {
        let key = Curve25519.Signing.PrivateKey()
        let keys = [TicketSigningKey(key.publicKey)]
        for payload in [Data(), Data([0x0A, 0x05, 0x61]), Data([0x10, 0x07]), Data([0x0A, 0x01, 0x61, 0x10]), Data([0x0A, 0x01, 0x61, 0x12, 0x01, 0x00])] {
            #expect(SignedTicketFormat.check(try sign(payload, with: key), keys: keys) == .forged, "\(Array(payload))")
        }
    }

    @Test func keysPretixDoesNotListAsEd25519PEMAreNotKeys() {
        #expect(TicketSigningKey(pretixListed: "") == nil)
        #expect(TicketSigningKey(pretixListed: "not base64!") == nil)
        #expect(TicketSigningKey(pretixListed: Data("-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n".utf8).base64EncodedString()) == nil)
    }

    func field(_ number: UInt8, _ value: UInt64) -> Data {
        var bytes = [number << 3]
        var rest = value
        repeat {
            bytes.append(UInt8(rest & 0x7F) | (rest > 0x7F ? 0x80 : 0))
            rest >>= 7
        } while rest > 0
        return Data(bytes)
    }

    func sign(_ payload: Data, with key: Curve25519.Signing.PrivateKey) throws -> String {
        let signature = try key.signature(for: payload)
        let raw = Data([0x01, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF), 0x00, 0x40]) + payload + signature
        return String(raw.base64EncodedString().reversed())
    }
}

struct SignedTicketIssuerTests {
    @Test func anIssuedTicketVerifiesWithItsListedKeyAndReadsBack() throws {
        let issuer = SignedTicketIssuer()
        let ticket = SignedTicket(seed: "bench-0001", item: 1, variation: 3, subevent: 14, validFrom: Timestamp(milliseconds: 1_800_000_000_000))
        let key = try #require(TicketSigningKey(pretixListed: issuer.listedKey))
        #expect(SignedTicketFormat.check(try issuer.code(for: ticket), keys: [key]) == .valid(ticket))
        #expect(SignedTicketFormat.check(try issuer.code(for: ticket), keys: [SignedTicketFormatTests.otherKey]) == .forged)
    }
}

struct SignedTicketShapeTests {
    @Test func theSignedFormatIsToldApartWithoutAKey() {
        #expect(SignedTicketFormat.isSigned(SignedTicketFormatTests.vector))
        #expect(!SignedTicketFormat.isSigned("BENCH-1") && !SignedTicketFormat.isSigned("Ticket-0001"))
    }
}
