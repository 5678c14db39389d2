import CheckInCore
import Testing
@testable import HubServer

/// The hub's pure rules, without I/O: what both stores apply inside their transactions.
@Suite struct HubRulesTests {
    let now = Timestamp(milliseconds: 1_780_000_000_000)

    @Test("a refresh token earns a pair when current, or when previous within the grace",
          arguments: [
              (true, Int64?.none, Int64(0), RefreshRotation.Verdict.rotate),
              (false, Int64(-10_000), Int64(60_000), .rotate),
              (false, Int64(-60_000), Int64(60_000), .rotate),
              (false, Int64(-60_001), Int64(60_000), .revoke),
              (false, Int64(5_000), Int64(60_000), .rotate),      // another hub's clock slightly ahead
              (false, Int64(-10_000), Int64(0), .revoke),         // grace off
              (false, Int64?.none, Int64(60_000), .revoke),       // rotated before the hub recorded when
              (false, Int64(Int64.min / 2), Int64(Int64.max), .rotate),
          ])
    func refreshVerdicts(current: Bool, rotatedOffset: Int64?, grace: Int64, expected: RefreshRotation.Verdict) {
        let verdict = RefreshRotation.verdict(
            presentedIsCurrent: current, rotatedAt: rotatedOffset.map { now.adding(milliseconds: $0) },
            refreshExpires: now.adding(milliseconds: 1_000), now: now, graceMilliseconds: grace)
        #expect(verdict == expected)
    }

    @Test func anExpiredSessionRefreshesNothing() {
        for current in [true, false] {
            #expect(RefreshRotation.verdict(presentedIsCurrent: current, rotatedAt: now, refreshExpires: now, now: now, graceMilliseconds: 60_000) == .refuse)
        }
    }

    @Test func aDeviceIDIsClaimedOnlyWithItsSecret() {
        #expect(StationClaim.decide(existingSecretHash: .none, claimSecretHash: "h1") == .registered)
        #expect(StationClaim.decide(existingSecretHash: .some(nil), claimSecretHash: "h1") == .registered)
        #expect(StationClaim.decide(existingSecretHash: "h1", claimSecretHash: "h1") == .registered)
        #expect(StationClaim.decide(existingSecretHash: "h1", claimSecretHash: "h2") == .deviceTaken)
    }

    @Test func anUnknownAccessTypeFallsBackToGeneralThenTheFirstByID() {
        #expect(DefaultAccessType.resolve(requested: "vip", known: ["vip", "general"])?.id == "vip")
        #expect(DefaultAccessType.resolve(requested: "vip", known: ["vip", "general"])?.review == nil)
        #expect(DefaultAccessType.resolve(requested: "backstage", known: ["vip", "general"])?.id == "general")
        #expect(DefaultAccessType.resolve(requested: "backstage", known: ["vip", "day-1"])?.id == "day-1")
        #expect(DefaultAccessType.resolve(requested: "backstage", known: ["vip"])?.review != nil)
        #expect(DefaultAccessType.resolve(requested: "backstage", known: []) == nil)
    }

    @Test("walk-in codes are printable, without spaces, and already normalized",
          arguments: [("W-AB12", true), ("w-ab12", true), ("🎟-7", true), (String(repeating: "W", count: 256), true),
                      ("", false), (" W1", false), ("W 1", false), ("W\u{0}1", false), ("W\u{1b}[2J", false), ("W\u{200D}1", false),
                      ("W\u{202E}1", false), ("W\u{E000}", false), ("https://t.example/t/ABC", false), (String(repeating: "W", count: 257), false)])
    func walkInCodes(code: String, acceptable: Bool) {
        #expect(WalkInCode.isAcceptable(code) == acceptable)
    }

    @Test func lengthsCountCharactersNotBytes() {
        #expect(!UploadValidation.exceeds(String(repeating: "é", count: 200), 200))
        #expect(UploadValidation.exceeds(String(repeating: "é", count: 201), 200))
        #expect(!UploadValidation.exceeds(String(repeating: "👩‍👩‍👧", count: 200), 200))
        #expect(UploadValidation.exceeds(String(repeating: "x", count: 1_000_000), 200))
    }
}

/// Which address a sign-in counts against.
@Suite struct ClientAddressTests {
    @Test func theForwardedAddressCountsOnlyBehindATrustedProxyAndOnlyTheHopItSaw() {
        #expect(ClientAddress.resolve(peer: "10.0.0.9", forwardedFor: "1.2.3.4", trustedProxies: []) == "10.0.0.9")
        #expect(ClientAddress.resolve(peer: "10.0.0.9", forwardedFor: "1.2.3.4", trustedProxies: ["10.0.0.1"]) == "10.0.0.9")
        #expect(ClientAddress.resolve(peer: "10.0.0.1", forwardedFor: "1.2.3.4", trustedProxies: ["10.0.0.1"]) == "1.2.3.4")
        #expect(ClientAddress.resolve(peer: "10.0.0.1", forwardedFor: "6.6.6.6, 1.2.3.4", trustedProxies: ["10.0.0.1"]) == "1.2.3.4")
        #expect(ClientAddress.resolve(peer: "10.0.0.1", forwardedFor: "1.2.3.4, 10.0.0.2", trustedProxies: ["10.0.0.1", "10.0.0.2"]) == "1.2.3.4")
        #expect(ClientAddress.resolve(peer: "10.0.0.1", forwardedFor: nil, trustedProxies: ["10.0.0.1"]) == "10.0.0.1")
        #expect(ClientAddress.resolve(peer: nil, forwardedFor: "1.2.3.4", trustedProxies: []) == "unknown")
    }

    @Test func anIPv6ClientIsItsSlashSixtyFourAndAnIPv4OneItsAddress() {
        #expect(ClientAddress.key("203.0.113.9") == "203.0.113.9")
        #expect(ClientAddress.key("2001:db8:5:6::1") == "2001:db8:5:6::/64")
        #expect(ClientAddress.key("2001:0DB8:0005:0006:ffff:1:2:3") == "2001:db8:5:6::/64", "written out in full and in capitals")
        #expect(ClientAddress.key("2001:db8:5:7::1") == "2001:db8:5:7::/64")
        #expect(ClientAddress.key("fe80::1%eth0") == "fe80:0:0:0::/64")
        #expect(ClientAddress.key("::ffff:198.51.100.7") == "198.51.100.7", "an IPv4 client seen through an IPv6 socket")
        #expect(ClientAddress.key("::1") == "0:0:0:0::/64")
        #expect(ClientAddress.key("unknown") == "unknown")
    }
}
