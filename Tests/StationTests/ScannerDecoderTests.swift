import CEvdev
import Foundation
import KioskTestSupport
import OperatorConsole
@testable import Station
import Testing

/// The evdev key-event decoder, fed recorded `input_event` records through a pipe, for every
/// layout a scanner can be set to. Reading the pipe blocks, so the suite runs off the
/// cooperative pool.
@Suite(.blocking) struct ScannerDecoderTests {
    static let url = "https://tix.example/t?c=AB-12_x.y&z=9"

    /// Layout-specific characters on top of the URL: AltGr, Shift on the ISO key, umlauts, digits on Shift.
    static let extras: [String: String] = [
        "us": "user@host#frag~1%2+3",
        "uk": "a@b#c\"d£5\\e|f~g€",
        "de": "ä@ßÜ{[]}\\|~€#+",
        "fr": "é@#{[|`\\^]}€àù!,;",
    ]

    /// Writes the records into a pipe in odd-sized pieces from another thread (so reads end
    /// mid-record) and decodes what comes out of the pipe until the writer closes it.
    func decodeThroughAPipe(_ bytes: [UInt8], layout: KeyboardLayout, tabEndsCode: Bool = false) throws -> [DecodedScan] {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        let (readEnd, writeEnd) = (ends[0], ends[1])
        let writer = Thread {
            var offset = 0
            while offset < bytes.count {
                let piece = min(7, bytes.count - offset)
                let written = bytes[offset..<(offset + piece)].withUnsafeBytes { write(writeEnd, $0.baseAddress, piece) }
                if written <= 0 { break }
                offset += written
            }
            close(writeEnd)
        }
        writer.start()
        defer { close(readEnd) }
        var reader = EvdevKeyReader(decoder: ScannerKeyDecoder(layout: layout, tabEndsCode: tabEndsCode))
        var scans: [DecodedScan] = []
        let end = try reader.read(fd: readEnd, path: "pipe", stop: StopSignal()) { scans.append($0) }
        #expect(end == .ended)
        return scans
    }

    func codes(_ scans: [DecodedScan]) -> [String] {
        scans.compactMap { if case .code(let code, _) = $0 { code } else { nil } }
    }

    @Test(arguments: ["us", "uk", "de", "fr"])
    func aURLAndTheLayoutsOwnCharactersDecodeAsTyped(layoutName: String) throws {
        let layout = try #require(KeyboardLayout.named(layoutName))
        var recording = KeystrokeRecording()
        for text in [Self.url, Self.extras[layoutName]!] {
            recording.type(Typist.strokes(text, layout: layoutName) + [.plain(KEY_ENTER)])
        }
        let scans = try decodeThroughAPipe(recording.bytes, layout: layout)
        #expect(codes(scans) == [Self.url, Self.extras[layoutName]!])
    }

    @Test func theSameKeysReadWithTheWrongLayoutAreADifferentCode() throws {
        // Why `scanner_layout` matters: a German scanner's "/" (Shift+7) is "&" on US keys.
        var recording = KeystrokeRecording()
        recording.type(Typist.strokes("ab/z-y", layout: "de") + [.plain(KEY_ENTER)])
        #expect(codes(try decodeThroughAPipe(recording.bytes, layout: .us)) == ["ab&y/z"])
        #expect(codes(try decodeThroughAPipe(recording.bytes, layout: .de)) == ["ab/z-y"])
    }

    @Test func timingComesFromTheEventsOwnTimestamps() throws {
        var recording = KeystrokeRecording(gap: .milliseconds(6))
        recording.type(Typist.strokes("DEMO-0001", layout: "us") + [.plain(KEY_ENTER)])
        let scans = try decodeThroughAPipe(recording.bytes, layout: .us)
        #expect(scans == [.code("DEMO-0001", ScanTiming(keyGaps: [Duration](repeating: .milliseconds(6), count: 9), duration: .milliseconds(54)))])
    }

    @Test func keypadEnterEndsACodeAndTabOnlyWhenConfigured() throws {
        var recording = KeystrokeRecording()
        recording.type([.plain(KEY_KP1), .plain(KEY_KP2), .plain(KEY_KPDOT), .plain(KEY_KPSLASH), .plain(KEY_KPENTER)])
        recording.type(Typist.strokes("AB", layout: "us") + [.plain(KEY_TAB)] + Typist.strokes("CD", layout: "us") + [.plain(KEY_ENTER)])
        #expect(codes(try decodeThroughAPipe(recording.bytes, layout: .us)) == ["12./", "ABCD"])
        #expect(codes(try decodeThroughAPipe(recording.bytes, layout: .us, tabEndsCode: true)) == ["12./", "AB", "CD"])
        // The German keypad's decimal key is a comma.
        #expect(codes(try decodeThroughAPipe(recording.bytes, layout: .de)) == ["12,/", "ABCD"])
    }

    @Test func controlAltIsAltGrAndControlAloneTypesNothing() throws {
        var recording = KeystrokeRecording()
        recording.type([Stroke(key: KEY_Q, controlAlt: true)] + Typist.strokes("x", layout: "de"))
        recording.key(KEY_LEFTCTRL, 1, at: .seconds(1_700_000_001))
        recording.key(KEY_C, 1, at: .seconds(1_700_000_001) + .milliseconds(1))
        recording.key(KEY_C, 0, at: .seconds(1_700_000_001) + .milliseconds(2))
        recording.key(KEY_LEFTCTRL, 0, at: .seconds(1_700_000_001) + .milliseconds(3))
        recording.key(KEY_ENTER, 1, at: .seconds(1_700_000_001) + .milliseconds(4))
        #expect(codes(try decodeThroughAPipe(recording.bytes, layout: .de)) == ["@x"])
    }

    @Test func deadKeysComposeWithTheNextLetterAndStandAloneBeforeASpace() throws {
        var recording = KeystrokeRecording()
        // German: ^ then space, ´ then e, Shift+´ (`) then a, ^ then x.
        recording.type([.plain(KEY_GRAVE), .plain(KEY_SPACE), .plain(KEY_EQUAL), .plain(KEY_E), .shifted(KEY_EQUAL), .plain(KEY_A),
                        .plain(KEY_GRAVE), .plain(KEY_X), .plain(KEY_ENTER)])
        #expect(codes(try decodeThroughAPipe(recording.bytes, layout: .de)) == ["^éà^x"])
        // French: ^ then e, ¨ (Shift+^) then i.
        recording = KeystrokeRecording()
        recording.type([.plain(KEY_LEFTBRACE), .plain(KEY_E), .shifted(KEY_LEFTBRACE), .plain(KEY_I), .plain(KEY_ENTER)])
        #expect(codes(try decodeThroughAPipe(recording.bytes, layout: .fr)) == ["êï"])
    }

    @Test func capsLockRaisesLettersOnlyAndShiftLowersThemAgain() throws {
        var recording = KeystrokeRecording()
        recording.type([.plain(KEY_CAPSLOCK), .plain(KEY_A), .shifted(KEY_B), .plain(KEY_1), .plain(KEY_CAPSLOCK), .plain(KEY_C), .plain(KEY_ENTER)])
        #expect(codes(try decodeThroughAPipe(recording.bytes, layout: .us)) == ["Ab1c"])
    }

    @Test func droppedEventsMakeTheCodeUnreadableNotHalfACode() throws {
        var recording = KeystrokeRecording()
        recording.type(Typist.strokes("DEMO", layout: "us"))
        recording.key(KEY_0, 1, at: .seconds(1_700_000_002))
        var events = recording.events
        events.append(InputEvent(time: .seconds(1_700_000_002), type: UInt16(EV_SYN), code: UInt16(SYN_DROPPED), value: 0))
        var next = KeystrokeRecording(start: .seconds(1_700_000_003))
        next.type([.plain(KEY_ENTER)] + Typist.strokes("DEMO-0002", layout: "us") + [.plain(KEY_ENTER)])
        events += next.events
        let scans = try decodeThroughAPipe(events.flatMap(\.record), layout: .us)
        #expect(scans == [.unreadable, .code("DEMO-0002", ScanTiming(keyGaps: [Duration](repeating: .milliseconds(4), count: 9), duration: .milliseconds(36)))])
    }

    @Test func autoRepeatAndEmptyCodesGiveNothing() throws {
        var recording = KeystrokeRecording()
        recording.key(KEY_A, 1, at: .seconds(5))
        recording.key(KEY_A, 2, at: .seconds(5) + .milliseconds(500))
        recording.key(KEY_A, 0, at: .seconds(5) + .milliseconds(600))
        recording.type([.plain(KEY_ENTER), .plain(KEY_SPACE), .plain(KEY_ENTER)])
        #expect(codes(try decodeThroughAPipe(recording.bytes, layout: .us)) == ["a"])
    }

    @Test func recordsSplitAcrossReadsAreReassembled() {
        var recording = KeystrokeRecording()
        recording.type(Typist.strokes("Ab", layout: "us"))
        let bytes = recording.bytes
        var records = InputEventRecords()
        var events: [InputEvent] = []
        var offset = 0
        let sizes = [1, 23, 25, 5, 100, 3]
        while offset < bytes.count {
            let size = sizes[offset % sizes.count]
            let piece = Array(bytes[offset..<min(bytes.count, offset + size)])
            events += piece.withUnsafeBytes { records.append($0) }
            offset += piece.count
        }
        #expect(events == recording.events)
        #expect(MemoryLayout<input_event>.size == InputEvent.size)
    }

    @Test func layoutNamesAreTheConfigurationsWords() {
        #expect(KeyboardLayout.all.map(\.name) == ["us", "uk", "de", "fr"])
        #expect(KeyboardLayout.named("GB")?.name == "uk")
        #expect(KeyboardLayout.named("dvorak") == nil)
    }
}
