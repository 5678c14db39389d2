import CheckInCore
import KioskTestSupport
import Testing
@testable import KioskStore

@Suite("Guest search")
struct SearchTests {
    @Test("search is case- and accent-insensitive and finds substrings in every script", arguments: [
        ("jose muller", "ABC1"), ("JOSÉ", "ABC1"), ("müll", "ABC1"), ("acme", "ABC1"), ("jose@example", "ABC1"),
        ("ødegård", "ABC2"), ("odegard", "ABC2"), ("ØDEGÅRD", "ABC2"), ("fjord", "ABC2"),
        ("小明", "ABC3"), ("王小明", "ABC3"), ("北京", "ABC3"), ("abc3", "ABC3"),
    ])
    func finds(query: String, code: String) async throws {
        let station = try await Station()
        defer { station.directory.remove() }
        let found = try station.database.searchIndex.search(query)
        #expect(found.map(\.guest.code.value) == [code])
    }

    @Test("empty and unmatched queries return nothing", arguments: ["", "   ", "zzzz", "\u{1b}[5m", "\"", "%", "_"])
    func nothing(query: String) async throws {
        let station = try await Station()
        defer { station.directory.remove() }
        #expect(try station.database.searchIndex.search(query).isEmpty)
    }

    @Test("search results carry the check-in state")
    func checkedInState() async throws {
        let station = try await Station()
        defer { station.directory.remove() }
        _ = try await station.database.desk.checkIn(CheckInRequest(rawCode: "ABC1", source: .camera, operatorName: "Alex"))
        #expect(try station.database.searchIndex.search("jose").first?.checkedIn?.by == "Alex")
        #expect(try station.database.searchIndex.search("odegard").first?.checkedIn == nil)
    }
}
