/// Dates in a workbook are numbers (days since 1900, or 1904 on old Macs) that only their cell's
/// number format shows as dates. This reads such a number back into the wall-clock text
/// ``RosterDate`` reads in the event's time zone: `2026-11-24 08:30`, `2026-11-24` for a whole
/// day, `08:30` for a time alone (not a date: the row is then rejected, naming what it shows).
enum ExcelDate {
    /// Whether a number format shows dates or times: Excel's built-in date ids (14–22, 45–47, and
    /// the East Asian ones 27–36, 50–58) when the workbook defines no code for the id, or a code
    /// with y, m, d, h or s outside quoted text, escapes and `[…]` sections (colours, locales).
    static func isDateFormat(id: Int, code: String?) -> Bool {
        guard let code else { return [14...22, 27...36, 45...47, 50...58].contains { $0.contains(id) } }
        var skipNext = false, quoted = false, bracketed = false
        for character in code {
            if skipNext { skipNext = false; continue }
            if quoted { if character == "\"" { quoted = false }; continue }
            if bracketed { if character == "]" { bracketed = false }; continue }
            switch character {
            case "\"": quoted = true
            case "[": bracketed = true
            case "\\", "_", "*": skipNext = true
            case ";": return false  // only the first section (positive numbers) says what a date shows
            case "y", "Y", "m", "M", "d", "D", "h", "H", "s", "S": return true
            default: continue
            }
        }
        return false
    }

    /// The serial number as wall-clock text, or `nil` when it is no date (negative, past 9999,
    /// or 1900-02-29, the day Excel counts though it never was).
    static func text(serial: Double, date1904: Bool) -> String? {
        guard serial.isFinite, serial >= 0, serial < 2_958_466 else { return nil }
        let seconds = Int((serial * 86_400).rounded())
        let days = seconds / 86_400, time = seconds % 86_400
        let clock = time % 60 == 0 ? pad(time / 3600) + ":" + pad(time / 60 % 60)
            : pad(time / 3600) + ":" + pad(time / 60 % 60) + ":" + pad(time % 60)
        if !date1904 && days == 0 { return clock }
        let epochDay: Int  // days from 1970-01-01
        if date1904 { epochDay = -24_107 + days }
        else if days < 60 { epochDay = -25_568 + days }
        else if days == 60 { return nil }
        else { epochDay = -25_569 + days }
        let (year, month, day) = civil(epochDay)
        let date = "\(year)-\(pad(month))-\(pad(day))"
        return time == 0 ? date : date + " " + clock
    }

    private static func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    /// Year, month and day of a day count from 1970-01-01 in the proleptic Gregorian calendar
    /// (Howard Hinnant's `civil_from_days`): no time zone comes into it.
    private static func civil(_ days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
