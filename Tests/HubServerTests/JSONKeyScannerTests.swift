import Foundation
@testable import HubServer
import Testing

struct JSONKeyScannerTests {
    @Test func keysAreGroupedByPathWithArrayElementsCollapsedAndNullsLeftOut() throws {
        let json = #"{"items": [{"a": 1, "b": {"c": "x,}]"}}, {"a": null, "d": [true, {"e": -1.5e3}]}], "f": "\"quoted\"", "g": null}"#
        let keys = try #require(JSONKeyScanner.keys(in: Data(json.utf8)))
        #expect(keys[""] == ["items", "f"])
        #expect(keys["items.*"] == ["a", "b", "d"])
        #expect(keys["items.*.b"] == ["c"])
        #expect(keys["items.*.d.*"] == ["e"])
    }

    @Test func aKeyWithAnEscapeIsLeftToTheFullCheck() {
        #expect(JSONKeyScanner.keys(in: Data(#"{"it\u0065ms": []}"#.utf8)) == nil)
        #expect(JSONKeyScanner.keys(in: Data(#"{"items": [}"#.utf8)) == nil)
    }
}
