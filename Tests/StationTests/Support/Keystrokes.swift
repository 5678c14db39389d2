import CEvdev
import Foundation
@testable import Station

/// One key as a person (or a scanner) presses it on a given layout.
struct Stroke: Equatable {
    var key: Int32
    var shift = false
    var altGr = false
    /// AltGr as Windows layouts send it: Ctrl + left Alt.
    var controlAlt = false

    static func plain(_ key: Int32) -> Stroke { Stroke(key: key) }
    static func shifted(_ key: Int32) -> Stroke { Stroke(key: key, shift: true) }
    static func altGr(_ key: Int32) -> Stroke { Stroke(key: key, altGr: true) }
}

/// Recorded keystrokes as a real keyboard's evdev node delivers them: for every key an
/// `EV_MSC/MSC_SCAN`, the `EV_KEY` press or release and an `EV_SYN` report, modifiers pressed
/// and released around the key, one stroke every `gap`.
struct KeystrokeRecording {
    var start: Duration
    var gap: Duration
    private(set) var events: [InputEvent] = []
    private var strokes = 0

    init(start: Duration = .seconds(1_700_000_000), gap: Duration = .milliseconds(4)) {
        self.start = start
        self.gap = gap
    }

    mutating func type(_ strokes: [Stroke]) {
        for stroke in strokes { press(stroke) }
    }

    mutating func press(_ stroke: Stroke) {
        let at = start + gap * strokes
        strokes += 1
        var modifiers: [Int32] = []
        if stroke.shift { modifiers.append(KEY_LEFTSHIFT) }
        if stroke.altGr { modifiers.append(KEY_RIGHTALT) }
        if stroke.controlAlt { modifiers += [KEY_LEFTCTRL, KEY_LEFTALT] }
        // Modifiers go down before and up after the key, within the stroke's time.
        let step = gap / 8
        var time = at - step * modifiers.count
        for modifier in modifiers { key(modifier, 1, at: time); time += step }
        key(stroke.key, 1, at: at)
        key(stroke.key, 0, at: at + step)
        time = at + step * 2
        for modifier in modifiers.reversed() { key(modifier, 0, at: time); time += step }
    }

    mutating func key(_ code: Int32, _ value: Int32, at time: Duration) {
        events.append(InputEvent(time: time, type: UInt16(EV_MSC), code: UInt16(MSC_SCAN), value: 0x70000 + code))
        events.append(InputEvent(time: time, type: UInt16(EV_KEY), code: UInt16(code), value: value))
        events.append(InputEvent(time: time, type: UInt16(EV_SYN), code: UInt16(SYN_REPORT), value: 0))
    }

    var bytes: [UInt8] { events.flatMap(\.record) }
}

/// How a person types characters on each layout, written from the keyboards' legends (not
/// from the decoder's tables, which it checks).
enum Typist {
    static func strokes(_ text: String, layout: String) -> [Stroke] {
        text.map { stroke($0, layout: layout) }
    }

    static func stroke(_ character: Character, layout: String) -> Stroke {
        if let special = punctuation[layout]?[character] { return special }
        if let digit = character.wholeNumberValue, character.isASCII {
            let key = digit == 0 ? KEY_0 : KEY_1 + Int32(digit - 1)
            return layout == "fr" ? .shifted(key) : .plain(key)
        }
        let lower = Character(character.lowercased())
        guard let key = letterKey(lower, layout: layout) else { fatalError("no stroke for \(character) on \(layout)") }
        return Stroke(key: key, shift: character != lower)
    }

    /// Letters by their place on a QWERTY keyboard, moved where the layout moves them.
    static func letterKey(_ letter: Character, layout: String) -> Int32? {
        let moved: [Character: Int32] = switch layout {
        case "de": ["y": KEY_Z, "z": KEY_Y]
        case "fr": ["a": KEY_Q, "q": KEY_A, "z": KEY_W, "w": KEY_Z, "m": KEY_SEMICOLON]
        default: [:]
        }
        if let key = moved[letter] { return key }
        let qwerty: [Character: Int32] = [
            "q": KEY_Q, "w": KEY_W, "e": KEY_E, "r": KEY_R, "t": KEY_T, "y": KEY_Y, "u": KEY_U, "i": KEY_I, "o": KEY_O, "p": KEY_P,
            "a": KEY_A, "s": KEY_S, "d": KEY_D, "f": KEY_F, "g": KEY_G, "h": KEY_H, "j": KEY_J, "k": KEY_K, "l": KEY_L,
            "z": KEY_Z, "x": KEY_X, "c": KEY_C, "v": KEY_V, "b": KEY_B, "n": KEY_N, "m": KEY_M,
        ]
        return qwerty[letter]
    }

    static let punctuation: [String: [Character: Stroke]] = [
        "us": [":": .shifted(KEY_SEMICOLON), "/": .plain(KEY_SLASH), ".": .plain(KEY_DOT), "?": .shifted(KEY_SLASH), "=": .plain(KEY_EQUAL),
               "-": .plain(KEY_MINUS), "_": .shifted(KEY_MINUS), "&": .shifted(KEY_7), "@": .shifted(KEY_2), "#": .shifted(KEY_3),
               "~": .shifted(KEY_GRAVE), "%": .shifted(KEY_5), "+": .shifted(KEY_EQUAL)],
        "uk": [":": .shifted(KEY_SEMICOLON), "/": .plain(KEY_SLASH), ".": .plain(KEY_DOT), "?": .shifted(KEY_SLASH), "=": .plain(KEY_EQUAL),
               "-": .plain(KEY_MINUS), "_": .shifted(KEY_MINUS), "&": .shifted(KEY_7), "@": .shifted(KEY_APOSTROPHE), "#": .plain(KEY_BACKSLASH),
               "\"": .shifted(KEY_2), "£": .shifted(KEY_3), "\\": .plain(KEY_102ND), "|": .shifted(KEY_102ND), "~": .shifted(KEY_BACKSLASH),
               "€": .altGr(KEY_4)],
        "de": [":": .shifted(KEY_DOT), "/": .shifted(KEY_7), ".": .plain(KEY_DOT), "?": .shifted(KEY_MINUS), "=": .shifted(KEY_0),
               "-": .plain(KEY_SLASH), "_": .shifted(KEY_SLASH), "&": .shifted(KEY_6), "@": .altGr(KEY_Q), "ä": .plain(KEY_APOSTROPHE),
               "Ü": .shifted(KEY_LEFTBRACE), "ß": .plain(KEY_MINUS), "{": .altGr(KEY_7), "[": .altGr(KEY_8), "]": .altGr(KEY_9),
               "}": .altGr(KEY_0), "\\": .altGr(KEY_MINUS), "|": .altGr(KEY_102ND), "~": .altGr(KEY_RIGHTBRACE), "€": .altGr(KEY_E),
               "#": .plain(KEY_BACKSLASH), "+": .plain(KEY_RIGHTBRACE)],
        "fr": [":": .plain(KEY_DOT), "/": .shifted(KEY_DOT), ".": .shifted(KEY_COMMA), "?": .shifted(KEY_M), "=": .plain(KEY_EQUAL),
               "-": .plain(KEY_6), "_": .plain(KEY_8), "&": .plain(KEY_1), "@": .altGr(KEY_0), "é": .plain(KEY_2), "#": .altGr(KEY_3),
               "{": .altGr(KEY_4), "[": .altGr(KEY_5), "|": .altGr(KEY_6), "`": .altGr(KEY_7), "\\": .altGr(KEY_8), "^": .altGr(KEY_9),
               "]": .altGr(KEY_MINUS), "}": .altGr(KEY_EQUAL), "€": .altGr(KEY_E), "à": .plain(KEY_0), "ù": .plain(KEY_APOSTROPHE),
               "!": .plain(KEY_SLASH), ",": .plain(KEY_M), ";": .plain(KEY_COMMA)],
    ]
}
