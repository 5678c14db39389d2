import CEvdev
import Foundation
import OperatorConsole

/// What a scanner's keys amount to once a code ends.
public enum DecodedScan: Sendable, Equatable {
    /// A code and how its keys arrived (from the events' own timestamps).
    case code(String, ScanTiming)
    /// Keys were lost (the kernel dropped events) or the code grew past any ticket: the
    /// attendee is told "unreadable", never shown half a code.
    case unreadable
}

/// Turns a scanner's key events into codes with the layout it emulates: Shift (either),
/// AltGr (right Alt, or Ctrl+left Alt as Windows layouts send it), Caps Lock and dead keys;
/// Enter or keypad Enter (and Tab, when configured) ends a code. Releases, auto-repeat and
/// keys with Ctrl, Alt or Meta alone give no characters. A pure value: events in, codes out.
public struct ScannerKeyDecoder: Sendable {
    public let layout: KeyboardLayout
    let endKeys: Set<UInt16>
    private var held: Set<UInt16> = []
    private var capsLock = false
    private var pendingAccent: Character?
    private var code = ""
    private var presses: [Duration] = []
    private var spoiled = false

    /// Longer than any ticket code (256 characters) or URL payload a scanner sends.
    static let maximumLength = 4096

    public init(layout: KeyboardLayout, tabEndsCode: Bool = false) {
        self.layout = layout
        var ends: Set<UInt16> = [UInt16(KEY_ENTER), UInt16(KEY_KPENTER)]
        if tabEndsCode { ends.insert(UInt16(KEY_TAB)) }
        endKeys = ends
    }

    static let shiftKeys: Set<UInt16> = [UInt16(KEY_LEFTSHIFT), UInt16(KEY_RIGHTSHIFT)]
    static let controlKeys: Set<UInt16> = [UInt16(KEY_LEFTCTRL), UInt16(KEY_RIGHTCTRL)]
    static let modifierKeys: Set<UInt16> = shiftKeys.union(controlKeys).union(
        [KEY_LEFTALT, KEY_RIGHTALT, KEY_LEFTMETA, KEY_RIGHTMETA].map { UInt16($0) })

    /// One event; a code when it ends one.
    public mutating func handle(_ event: InputEvent) -> DecodedScan? {
        if event.type == UInt16(EV_SYN), event.code == UInt16(SYN_DROPPED) {
            // The kernel's buffer overflowed: keys of this code are missing, and so may be
            // modifier releases.
            spoiled = true
            held.removeAll()
            return nil
        }
        guard event.type == UInt16(EV_KEY) else { return nil }
        let key = event.code
        if Self.modifierKeys.contains(key) {
            if event.value == 1 { held.insert(key) } else if event.value == 0 { held.remove(key) }
            return nil
        }
        // Only presses: releases give nothing, and a key held long enough to repeat is a fault.
        guard event.value == 1 else { return nil }
        if key == UInt16(KEY_CAPSLOCK) {
            capsLock.toggle()
            return nil
        }
        if endKeys.contains(key) { return finish(at: event.time) }
        guard let text = characters(for: key) else { return nil }
        presses.append(event.time)
        append(text)
        return nil
    }

    private var altGr: Bool {
        held.contains(UInt16(KEY_RIGHTALT)) || (held.contains(UInt16(KEY_LEFTALT)) && !held.isDisjoint(with: Self.controlKeys))
    }

    /// Ctrl, Alt or Meta without making AltGr: a shortcut, not a character.
    private var shortcut: Bool {
        !altGr && held.contains { !Self.shiftKeys.contains($0) }
    }

    private mutating func characters(for key: UInt16) -> String? {
        guard !shortcut,
              let symbol = layout.symbol(for: key, shift: !held.isDisjoint(with: Self.shiftKeys), altGr: altGr, capsLock: capsLock)
        else { return nil }
        switch symbol {
        case .dead(let accent):
            if let pending = pendingAccent {
                pendingAccent = nil
                return pending == accent ? String(accent) : String(pending) + String(accent)
            }
            pendingAccent = accent
            return ""
        case .character(let character):
            guard let accent = pendingAccent else { return String(character) }
            pendingAccent = nil
            return Self.compose(accent, character)
        }
    }

    /// A dead key's accent on the next character: "ê" where Unicode has it, the accent itself
    /// before a space, both characters otherwise.
    static func compose(_ accent: Character, _ character: Character) -> String {
        if character == " " { return String(accent) }
        let combining: [Character: String] = ["^": "\u{302}", "`": "\u{300}", "´": "\u{301}", "¨": "\u{308}", "~": "\u{303}"]
        guard let mark = combining[accent] else { return String(accent) + String(character) }
        let composed = (String(character) + mark).precomposedStringWithCanonicalMapping
        return composed.unicodeScalars.count == 1 ? composed : String(accent) + String(character)
    }

    private mutating func append(_ text: String) {
        guard !spoiled else { return }
        code += text
        if code.unicodeScalars.count > Self.maximumLength {
            spoiled = true
            code = ""
        }
    }

    private mutating func finish(at time: Duration) -> DecodedScan? {
        defer {
            code = ""
            presses = []
            pendingAccent = nil
            spoiled = false
        }
        if spoiled { return .unreadable }
        if let accent = pendingAccent { code.append(accent) }
        let text = code.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return nil }
        return .code(text, ScanTiming(arrivals: presses + [time]))
    }
}
