import Testing
@testable import QRScan

@Suite struct PayloadHygieneTests {
    @Test func ordinaryTextPasses() throws {
        #expect(try PayloadHygiene.check(Array("ABC-123 Zoë".utf8)).get() == "ABC-123 Zoë")
    }

    @Test func aTrailingNewlineIsTrimmedNotRejected() throws {
        #expect(try PayloadHygiene.check(Array("ABC123\r\n".utf8)).get() == "ABC123")
    }

    @Test("unsafe payloads are rejected with a reason", arguments: [
        (Array("\u{1B}[2Jhello".utf8), PayloadHygiene.Rejection.controlCharacters),
        (Array("a\u{7}b".utf8), .controlCharacters),
        (Array("evil\u{202E}gpj.exe".utf8), .controlCharacters),
        ([0x41, 0xFF, 0xFE, 0x42], .invalidUTF8),
        ([0xC3], .invalidUTF8),
        (Array(repeating: UInt8(ascii: "A"), count: 2049), .tooLong),
        ([], .empty),
    ])
    func unsafePayloadsAreRejected(bytes: [UInt8], reason: PayloadHygiene.Rejection) {
        #expect(PayloadHygiene.check(bytes) == .failure(.init(reason)))
    }

    @Test func aCodeCarryingAnEscapeSequenceIsReportedUnreadableNotPassedOn() {
        let frame = QRFixtures.frame("\u{1B}]0;pwned\u{7}TICKET", .init(modulePixels: 5))
        let result = QRDecoder().decode(frame)
        #expect(result.codes.map(\.payload) == [.unreadable(.controlCharacters)])
        #expect(result.codes.texts.isEmpty)
    }

    @Test func aCodeLongerThanTheLimitIsUnreadable() {
        var config = DecoderConfiguration()
        config.maximumPayloadBytes = 40
        let frame = QRFixtures.frame(String(repeating: "X", count: 60), .init(modulePixels: 5))
        #expect(QRDecoder(configuration: config).decode(frame).codes.map(\.payload) == [.unreadable(.tooLong)])
    }
}
