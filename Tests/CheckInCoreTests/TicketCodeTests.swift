import Testing
@testable import CheckInCore

@Suite("Ticket code normalization")
struct TicketCodeTests {
    @Test("what scanners and people send reduces to the stored code", arguments: [
        ("ABC123", "ABC123"),
        ("abc123", "ABC123"),
        ("  ABC123  ", "ABC123"),
        ("ABC123\r\n", "ABC123"),
        ("ABC123\n", "ABC123"),
        ("ABC123\r", "ABC123"),
        ("ABC123\t", "ABC123"),
        ("\u{0}ABC\u{0}123\u{0}", "ABC123"),
        ("https://tickets.example.com/t/abc123", "ABC123"),
        ("https://tickets.example.com/t/abc123/", "ABC123"),
        ("http://example.org/event/2026/t/XyZ9?utm=1", "XYZ9"),
        ("https://example.org/checkin?code=q7", "Q7"),
        ("https://example.org/e/ABC%2D1", "ABC-1"),
        ("ÉCOLE-1", "ÉCOLE-1"),
    ])
    func normalizes(raw: String, expected: String) {
        #expect(TicketCode(normalizing: raw)?.value == expected)
    }

    @Test("garbage is not a code", arguments: ["", "   ", "\r\n", "\u{0}", "AB C", "\u{1b}[2J", "A\u{7}B", String(repeating: "X", count: 257)])
    func rejects(raw: String) {
        #expect(TicketCode(normalizing: raw) == nil)
    }

    @Test("case-sensitive events keep the case")
    func caseSensitive() {
        #expect(TicketCode(normalizing: " aBc\r\n", caseInsensitive: false)?.value == "aBc")
    }

    @Test("the longest accepted code is 256 characters")
    func maximumLength() {
        #expect(TicketCode(normalizing: String(repeating: "X", count: 256)) != nil)
    }
}
