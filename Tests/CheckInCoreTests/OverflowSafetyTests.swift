import Foundation
import PropertyBased
import Testing
@testable import CheckInCore

/// Time arithmetic over the whole `Int64` range: scan times come from clients and stored rows,
/// and one crafted value used to trap the hub (and every station that pulled it) for good.
@Suite("Overflow-safe time arithmetic")
struct OverflowSafetyTests {
    /// Any `Int64`, with the ends and the neighbourhood of 0 drawn as often as the whole range
    /// (a uniform draw almost never meets `Int64.min`).
    static func anyMilliseconds() -> Generator<Int64, AnySequence<(index: Int, value: Any)>> {
        Gen.frequency(
            (weight: 2, gen: Gen.int64()),
            (weight: 1, gen: Gen.int64(in: Int64.min...(Int64.min + 100_000))),
            (weight: 1, gen: Gen.int64(in: (Int64.max - 100_000)...Int64.max)),
            (weight: 1, gen: Gen.int64(in: -100_000...100_000)),
            (weight: 1, gen: Gen.int64(in: 1_577_836_800_000...1_900_000_000_000)))
    }

    static func clamped(_ value: Int128) -> Int64 { Int64(clamping: value) }

    @Test func addingSaturatesInsteadOfTrapping() async {
        await propertyCheck(count: 3_000, input: Self.anyMilliseconds(), Self.anyMilliseconds()) { a, b in
            #expect(Timestamp(milliseconds: a).adding(milliseconds: b).milliseconds == Self.clamped(Int128(a) + Int128(b)))
        }
    }

    @Test func distanceIsExactAndSymmetricForAnyTwoTimes() async {
        await propertyCheck(count: 3_000, input: Self.anyMilliseconds(), Self.anyMilliseconds()) { a, b in
            let ta = Timestamp(milliseconds: a), tb = Timestamp(milliseconds: b)
            #expect(ta.distance(to: tb) == UInt64((Int128(a) - Int128(b)).magnitude))
            #expect(ta.distance(to: tb) == tb.distance(to: ta))
            #expect(ta.milliseconds(since: tb) == Self.clamped(Int128(a) - Int128(b)))
        }
    }

    @Test func iso8601IsDefinedForEveryInt64() async {
        await propertyCheck(count: 3_000, input: Self.anyMilliseconds()) { ms in
            let text = Timestamp(milliseconds: ms).iso8601
            #expect(text.hasSuffix("Z"))
            #expect(!text.isEmpty)
        }
        for ms in [Int64.min, Int64.min + 1, -1_001, -1_000, -999, -1, 0, 1, Int64.max] {
            #expect(Timestamp(milliseconds: ms).iso8601.hasSuffix("Z"))
        }
        #expect(Timestamp(milliseconds: -1).iso8601 == "1969-12-31T23:59:59.999Z")
        #expect(Timestamp(milliseconds: 1_795_376_467_123).iso8601 == "2026-11-22T19:41:07.123Z")
    }

    @Test func iso8601RoundTripsOverThePlausibleSpan() async {
        await propertyCheck(count: 2_000, input: Gen.int64(in: 946_684_800_000...4_102_444_800_000)) { ms in
            #expect(Timestamp(iso8601: Timestamp(milliseconds: ms).iso8601) == Timestamp(milliseconds: ms))
        }
        // Found by this property: parsed as a binary fraction a hair below .001, once floored to .000.
        #expect(Timestamp(iso8601: "2004-01-10T13:37:04.001Z")?.milliseconds == 1_073_741_824_001)
    }

    @Test func aDateOfAnySizeBecomesASaturatedTimestamp() {
        #expect(Timestamp(Date(timeIntervalSince1970: .infinity)).milliseconds == .max)
        #expect(Timestamp(Date(timeIntervalSince1970: -.infinity)).milliseconds == .min)
        #expect(Timestamp(Date(timeIntervalSince1970: .nan)).milliseconds == 0)
        #expect(Timestamp(Date(timeIntervalSince1970: 1e300)).milliseconds == .max)
        #expect(Timestamp(Date(timeIntervalSince1970: 1.5)).milliseconds == 1_500)
    }

    @Test func decideNeverTrapsAndTheWindowIsSymmetric() async {
        let general = AccessType(id: "general", name: "General")
        let guest = Guest(id: "g", code: TicketCode(stored: "G"), name: "G", accessTypeID: "general")
        let windows = Gen.frequency(
            (weight: 3, gen: Gen.int64(in: 0...120_000)), (weight: 1, gen: Gen.int64()))
        await propertyCheck(count: 3_000, input: Self.anyMilliseconds(), Self.anyMilliseconds(), windows) { a, b, window in
            let policy = EventPolicy(toleranceWindowMilliseconds: window)
            func decide(_ attempt: Int64, earlier: Int64) -> Decision {
                let admission = CheckIn(
                    key: IdempotencyKey(deviceID: "d1", guestID: "g", scannedAt: Timestamp(milliseconds: earlier)),
                    station: "S", operatorName: "O", source: .camera)
                return CheckInRules.decide(
                    .init(deviceID: "d2", at: Timestamp(milliseconds: attempt)), guest: guest, accessType: general,
                    admissions: [admission], policy: policy)
            }
            let within = Int128(a) - Int128(b) <= Int128(max(0, window)) && Int128(b) - Int128(a) <= Int128(max(0, window))
            #expect((decide(a, earlier: b).kind == .duplicate) == within)
            #expect(decide(a, earlier: b).kind == decide(b, earlier: a).kind)
            #expect(policy.isWithinWindow(Timestamp(milliseconds: a), Timestamp(milliseconds: b)) == within)
        }
    }

    @Test func plausibilityAndValidityAreTrapFreeComparisons() async {
        await propertyCheck(count: 3_000, input: Self.anyMilliseconds(), Self.anyMilliseconds(), Self.anyMilliseconds()) { t, now, bound in
            let time = Timestamp(milliseconds: t), clock = Timestamp(milliseconds: now)
            let expected = t >= PlausibleTime.earliest.milliseconds
                && Int128(t) <= Int128(now) + Int128(PlausibleTime.maximumLeadMilliseconds)
            // The upper end saturates at Int64.max, which the exact comparison agrees with for any t.
            #expect(PlausibleTime.contains(time, now: clock) == expected)
            let type = AccessType(id: "a", name: "A", validFrom: Timestamp(milliseconds: bound), validUntil: Timestamp(milliseconds: bound))
            #expect(type.isValid(at: time) == (t == bound))
        }
    }
}
