import CheckInCore
import Foundation
import PretixClient
import Testing

@Suite struct PretixValuesTests {
    @Test func eachSecurityProfileSaysWhatItAllows() {
        let table: [(String, orders: Bool, positions: Bool, search: Bool, redeems: Bool)] = [
            ("full", true, true, true, true),
            ("pretixscan", true, true, true, true),
            ("pretixscan_online_noorders", false, true, true, true),
            ("pretixscan_online_kiosk", false, false, false, true),
            ("pretixpos", false, false, false, false),
        ]
        for (identifier, orders, positions, search, redeems) in table {
            let profile = PretixSecurityProfile(identifier)
            #expect(profile.identifier == identifier)
            #expect(profile.downloadsOrders == orders && profile.listsPositions == positions, "\(identifier)")
            #expect(profile.offersSearch == search && profile.redeems == redeems, "\(identifier)")
        }
    }

    @Test func aNonceIs130RandomBitsInBase32AndAStoredOneIsChecked() {
        let nonces = (0..<200).map { _ in PretixNonce.random().value }
        #expect(Set(nonces).count == 200)
        #expect(nonces.allSatisfy { $0.count == 26 && $0.allSatisfy { "0123456789abcdefghijklmnopqrstuv".contains($0) } })
        #expect(PretixNonce("abc-DEF_123")?.value == "abc-DEF_123")
        #expect(PretixNonce("") == nil && PretixNonce("a b") == nil && PretixNonce("\u{1b}x") == nil)
        #expect(PretixNonce(String(repeating: "a", count: 191)) == nil)
    }

    @Test func pretixTimesReadWithAndWithoutFractionsAndKeepTheirText() throws {
        let micro = try #require(PretixTime("2026-11-28T01:13:23.873956Z"))
        let millisecond = try #require(Timestamp(iso8601: "2026-11-28T01:13:23.873Z"))
        #expect(micro.timestamp.distance(to: millisecond) <= 1, "to the millisecond; the text keeps the rest")
        #expect(micro.text == "2026-11-28T01:13:23.873956Z")
        #expect(PretixTime("2026-11-25T02:12:55+01:00")?.timestamp == Timestamp(iso8601: "2026-11-25T01:12:55Z"))
        #expect(PretixTime("yesterday") == nil && PretixTime("2026-11-25T01:12:55Z<script>") == nil)
        #expect(PretixTime(String(repeating: "1", count: 100)) == nil)
    }

    @Test func aTranslatedTextPrefersTheAsked() throws {
        let text = try JSONDecoder().decode(PretixText.self, from: Data(#"{"de": "Tagespass", "en": "Day pass", "fr": null}"#.utf8))
        #expect(text.text() == "Day pass" && text.text(preferring: ["de"]) == "Tagespass" && text.text(preferring: ["fr"]) == "Day pass")
        #expect(try JSONDecoder().decode(PretixText.self, from: Data(#""Plain""#.utf8)).text() == "Plain")
    }

    @Test func aListsRulesAreKeptAsJSONAndNoRulesIsEmpty() throws {
        func rules(_ json: String) throws -> PretixRules {
            try JSONDecoder().decode(PretixRules.self, from: Data(json.utf8))
        }
        #expect(try rules("{}").isEmpty && rules("null").isEmpty)
        let kept = try rules(#"{"<": [{"var": "entries_number"}, 2]}"#)
        #expect(!kept.isEmpty && kept.json == #"{"<":[{"var":"entries_number"},2]}"#)
        let again = try JSONDecoder().decode(PretixRules.self, from: try JSONEncoder().encode(kept))
        #expect(again == kept, "written back as the JSON it is")
    }

    @Test func aRefusedScanIsReportedWithPretixsOwnReason() {
        let table: [(ListRefusal, String)] = [
            (.unknownCode, "invalid"), (.otherDate, "invalid"), (.ambiguous(count: 2), "ambiguous"), (.revoked, "revoked"),
            (.canceled, "canceled"), (.blocked, "blocked"), (.unapproved, "unapproved"),
            (.outsideWindow(validFrom: nil, validUntil: nil), "invalid_time"), (.productNotOnList(product: "VIP"), "product"),
            (.unpaid(admitAnyway: true), "unpaid"), (.needsOnline(.rules), "rules"), (.needsOnline(.questions(["1"])), "incomplete"),
            (.alreadyCheckedIn(first: PriorCheckIn(by: "", station: "", deviceID: "", at: Timestamp(milliseconds: 0))), "already_redeemed"),
        ]
        for (refusal, code) in table { #expect(PretixReason(refusal).code == code, "\(refusal)") }
        #expect(PretixReason("medium_invalid") == .other("medium_invalid"))
    }

    @Test func aScannedCodeWithControlCharactersIsReportedAsBinary() {
        let failed = PretixFailedCheckIn(scanned: "AB\u{1d}C", reason: .invalid, datetime: PretixTime(Timestamp(milliseconds: 0)), type: .entry,
                                         nonce: .random())
        #expect(failed.rawBarcode == "binary:" + Data("AB\u{1d}C".utf8).base64EncodedString())
        #expect(PretixFailedCheckIn(scanned: "ABC", reason: .invalid, datetime: PretixTime(Timestamp(milliseconds: 0)), type: .entry,
                                    nonce: .random()).rawBarcode == "ABC")
    }

    @Test func anOrderPositionBecomesTheTicketTheDoorRulesDecideOn() throws {
        let order = try JSONDecoder().decode(PretixOrder.self, from: Data(orderJSON(status: "n", positionExtra: "").utf8))
        let item = try JSONDecoder().decode(PretixItem.self, from: Data(#"""
            {"id": 1, "name": {"en": "Workshop"}, "internal_name": null, "active": true, "admission": true, "checkin_attention": false,
             "checkin_text": null, "variations": []}
            """#.utf8))
        let asked = try JSONDecoder().decode(PretixQuestion.self, from: Data(#"""
            {"id": 4, "question": {"en": "Waiver"}, "type": "B", "required": true, "items": [1], "options": [], "identifier": "W",
             "ask_during_checkin": true, "show_during_checkin": false}
            """#.utf8))
        var other = asked
        other.id = 5
        other.items = [2]
        let ticket = order.positions[0].orderTicket(order: order, items: [1: item], questions: [asked, other])
        #expect(ticket == OrderTicket(orderStatus: .pending, product: "1", productName: "Workshop", questionsToAsk: ["4"]))
    }
}
