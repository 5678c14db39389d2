import CEvdev

/// The keyboard layout a scanner emulates (`scanner_layout`): the character each key gives,
/// alone, with Shift and with AltGr. A scanner set to German types "/" as Shift+7; read with
/// the US layout that would be "&". Decoding uses the scanner's layout, never the console's.
public struct KeyboardLayout: Sendable {
    /// What a key gives on one level.
    enum Symbol: Sendable, Equatable {
        case character(Character)
        /// A dead key: the accent goes onto the next character ("^" then "e" is "ê"; then a
        /// space, the accent itself).
        case dead(Character)
    }

    struct Key: Sendable {
        var plain: Symbol?
        var shifted: Symbol?
        var altGr: Symbol?

        /// Letters follow Caps Lock; digits and punctuation do not.
        var isAlphabetic: Bool {
            guard case .character(let lower) = plain, case .character(let upper) = shifted else { return false }
            return lower.isLetter && lower.uppercased() == String(upper)
        }
    }

    public let name: String
    let keys: [UInt16: Key]

    /// Layouts by the name `scanner_layout` takes.
    public static let all: [KeyboardLayout] = [.us, .uk, .de, .fr]

    /// `us`, `uk` (or `gb`), `de`, `fr`; `nil` for others.
    public static func named(_ name: String) -> KeyboardLayout? {
        let wanted = name.lowercased() == "gb" ? "uk" : name.lowercased()
        return all.first { $0.name == wanted }
    }

    /// The symbol of a key on the level the modifiers select; AltGr falls back to nothing.
    func symbol(for code: UInt16, shift: Bool, altGr: Bool, capsLock: Bool) -> Symbol? {
        if let fixed = Self.layoutFree[code] { return .character(fixed) }
        guard let key = keys[code] else { return nil }
        if altGr { return key.altGr }
        return shift != (capsLock && key.isAlphabetic) ? key.shifted : key.plain
    }

    /// The main block's keys in rows, left to right, as evdev numbers them (the names are the
    /// US legends): the number row from the key left of 1, the top row with the key right of
    /// the brackets, the home row, and the bottom row from the ISO key left of Z.
    static let rows: [[Int32]] = [
        [KEY_GRAVE, KEY_1, KEY_2, KEY_3, KEY_4, KEY_5, KEY_6, KEY_7, KEY_8, KEY_9, KEY_0, KEY_MINUS, KEY_EQUAL],
        [KEY_Q, KEY_W, KEY_E, KEY_R, KEY_T, KEY_Y, KEY_U, KEY_I, KEY_O, KEY_P, KEY_LEFTBRACE, KEY_RIGHTBRACE, KEY_BACKSLASH],
        [KEY_A, KEY_S, KEY_D, KEY_F, KEY_G, KEY_H, KEY_J, KEY_K, KEY_L, KEY_SEMICOLON, KEY_APOSTROPHE],
        [KEY_102ND, KEY_Z, KEY_X, KEY_C, KEY_V, KEY_B, KEY_N, KEY_M, KEY_COMMA, KEY_DOT, KEY_SLASH],
    ]

    /// Keys that give the same everywhere (number lock on, as scanners assume); the keypad's
    /// decimal key is the layout's (`,` on German keyboards).
    static let layoutFree: [UInt16: Character] = [
        KEY_SPACE: " ", KEY_KP0: "0", KEY_KP1: "1", KEY_KP2: "2", KEY_KP3: "3", KEY_KP4: "4", KEY_KP5: "5", KEY_KP6: "6",
        KEY_KP7: "7", KEY_KP8: "8", KEY_KP9: "9", KEY_KPSLASH: "/", KEY_KPASTERISK: "*", KEY_KPMINUS: "-", KEY_KPPLUS: "+",
    ].reduce(into: [:]) { $0[UInt16($1.key)] = $1.value }

    /// A layout from its rows as typed alone and with Shift (one character per key of
    /// ``rows``; a space where the key gives nothing), the AltGr characters, and the dead keys.
    init(name: String, plain: [String], shifted: [String], altGr: [Int32: Character] = [:], keypadDecimal: Character = ".",
         deadPlain: Set<Int32> = [], deadShifted: Set<Int32> = []) {
        self.name = name
        var keys: [UInt16: Key] = [:]
        for (row, codes) in Self.rows.enumerated() {
            precondition(plain[row].count == codes.count && shifted[row].count == codes.count, "\(name) row \(row)")
            for (code, (lower, upper)) in zip(codes, zip(plain[row], shifted[row])) {
                func symbol(_ character: Character, dead: Bool) -> Symbol? {
                    character == " " ? nil : dead ? .dead(character) : .character(character)
                }
                keys[UInt16(code)] = Key(plain: symbol(lower, dead: deadPlain.contains(code)),
                                         shifted: symbol(upper, dead: deadShifted.contains(code)),
                                         altGr: altGr[code].map { .character($0) })
            }
        }
        keys[UInt16(KEY_KPDOT)] = Key(plain: .character(keypadDecimal), shifted: .character(keypadDecimal))
        self.keys = keys
    }
}
