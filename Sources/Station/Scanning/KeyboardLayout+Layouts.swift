import CEvdev

/// The layouts scanners are commonly set to, as X.Org's xkb data defines them (`us`, `gb`,
/// `de`, `fr`): every level-1 and level-2 character of the main block, and the AltGr
/// characters that ticket codes and URLs need (`@ # [ ] { } \ | ~` and `€`).
extension KeyboardLayout {
    public static let us = KeyboardLayout(
        name: "us",
        plain: ["`1234567890-=", "qwertyuiop[]\\", "asdfghjkl;'", "\\zxcvbnm,./"],
        shifted: ["~!@#$%^&*()_+", "QWERTYUIOP{}|", "ASDFGHJKL:\"", "|ZXCVBNM<>?"])

    public static let uk = KeyboardLayout(
        name: "uk",
        plain: ["`1234567890-=", "qwertyuiop[]#", "asdfghjkl;'", "\\zxcvbnm,./"],
        shifted: ["¬!\"£$%^&*()_+", "QWERTYUIOP{}~", "ASDFGHJKL:@", "|ZXCVBNM<>?"],
        altGr: [KEY_GRAVE: "|", KEY_4: "€"])

    /// QWERTZ: Y and Z swapped, "/" on Shift+7, "@" on AltGr+Q, ^ ´ ` dead.
    public static let de = KeyboardLayout(
        name: "de",
        plain: ["^1234567890ß´", "qwertzuiopü+#", "asdfghjklöä", "<yxcvbnm,.-"],
        shifted: ["°!\"§$%&/()=?`", "QWERTZUIOPÜ*'", "ASDFGHJKLÖÄ", ">YXCVBNM;:_"],
        altGr: [KEY_2: "²", KEY_3: "³", KEY_7: "{", KEY_8: "[", KEY_9: "]", KEY_0: "}", KEY_MINUS: "\\", KEY_Q: "@", KEY_E: "€",
                KEY_RIGHTBRACE: "~", KEY_102ND: "|", KEY_M: "µ"],
        keypadDecimal: ",", deadPlain: [KEY_GRAVE, KEY_EQUAL], deadShifted: [KEY_EQUAL])

    /// AZERTY: digits on Shift, "/" on Shift+:, "@" on AltGr+0, ^ ¨ dead.
    public static let fr = KeyboardLayout(
        name: "fr",
        plain: ["²&é\"'(-è_çà)=", "azertyuiop^$*", "qsdfghjklmù", "<wxcvbn,;:!"],
        shifted: ["~1234567890°+", "AZERTYUIOP¨£µ", "QSDFGHJKLM%", ">WXCVBN?./§"],
        altGr: [KEY_2: "~", KEY_3: "#", KEY_4: "{", KEY_5: "[", KEY_6: "|", KEY_7: "`", KEY_8: "\\", KEY_9: "^", KEY_0: "@",
                KEY_MINUS: "]", KEY_EQUAL: "}", KEY_E: "€"],
        deadPlain: [KEY_LEFTBRACE], deadShifted: [KEY_LEFTBRACE])
}
