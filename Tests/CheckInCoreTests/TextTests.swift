import Testing
@testable import CheckInCore

@Suite("Search folding, sanitizing, timestamps and keys")
struct TextTests {
    @Test("folding is case- and accent-insensitive", arguments: [
        ("José Müller", "jose muller"), ("Ødegård", "odegard"), ("ØDEGÅRD", "odegard"),
        ("Straße", "strasse"), ("Łukasz", "lukasz"), ("王小明", "王小明"), ("Ἀθηνᾶ", "αθηνα"),
    ])
    func folding(raw: String, folded: String) {
        #expect(SearchText.fold(raw) == folded)
    }

    @Test("escape sequences and bidi overrides never survive sanitizing")
    func sanitize() {
        #expect(Sanitized.text("Eve\u{1b}[2J\u{1b}]0;x\u{7}") == "Eve[2J]0;x")
        #expect(Sanitized.text("a\u{202E}b\u{9B}c") == "abc")
        #expect(Sanitized.text("مرحبا 王 Ж") == "مرحبا 王 Ж")
    }

    @Test("timestamps round-trip through ISO 8601 to the millisecond")
    func timestamps() throws {
        let t = Timestamp(milliseconds: 1_000_000_000_123)
        #expect(t.iso8601 == "2001-09-09T01:46:40.123Z")
        #expect(Timestamp(iso8601: t.iso8601) == t)
        #expect(Timestamp(milliseconds: -1).iso8601 == "1969-12-31T23:59:59.999Z")
    }

    @Test("idempotency keys round-trip through their text form")
    func keys() {
        let key = IdempotencyKey(deviceID: "dev", guestID: "g-1", scannedAt: Timestamp(milliseconds: 42))
        #expect(key.description == "dev/g-1/42")
        #expect(IdempotencyKey("dev/g-1/42") == key)
        #expect(IdempotencyKey("dev/g-1") == nil)
    }

    @Test("access type ids derive from names")
    func accessTypeIDs() {
        #expect(AccessType.identifier(forName: "VIP Pass") == "vip-pass")
        #expect(AccessType.identifier(forName: "Café / Día 1") == "cafe-dia-1")
        #expect(AccessType.identifier(forName: "") == "general")
    }
}

@Suite("Fast folding")
struct FastFoldingTests {
    @Test("the table-driven fold agrees with Foundation's folding on names in many scripts", arguments: [
        "José Müller", "ØDEGÅRD", "Łódź", "Ελληνικά Ἀθηνᾶ", "Дмитрий Иванов", "Ÿvette Ñúñez", "Çağlar Şahin",
        "Nguyễn Thị Minh Khai", "ＡＢＣ１２３", "Ærøskøbing", "straße", "O'Brien-Smith", "e\u{301}cole",
    ])
    func agrees(name: String) {
        #expect(SearchText.fold(name) == SearchText.slowFold(name))
    }
}
