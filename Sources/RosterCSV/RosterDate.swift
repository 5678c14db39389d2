import CheckInCore
import Foundation

/// A date or time cell of a roster file, as exports write them:
/// - ISO 8601 with an offset or `Z` (`2026-11-24T08:30:00+01:00`), taken as written;
/// - `YYYY-MM-DD HH:MM[:SS]` (pretix's English format, spreadsheets) or with a `T`,
///   and `DD.MM.YYYY HH:MM[:SS]`, in the given time zone;
/// - a date alone (`YYYY-MM-DD`, `DD.MM.YYYY`): its first millisecond, or its last one for the
///   end of a window (a ticket "valid until 2026-11-24" is valid all that day).
enum RosterDate {
    enum Edge { case start, end }

    static func parse(_ text: String, timeZone: TimeZone, dayEdge: Edge = .start) -> Timestamp? {
        let text = text.trimmedWhitespace()
        guard !text.isEmpty, text.utf8.count <= 40 else { return nil }
        if let zoned = zonedISO(text) { return zoned }
        var scanner = DigitScanner(text)
        let year, month, day: Int
        if let first = scanner.number(maxDigits: 4), scanner.lastLength == 4, scanner.skip("-") {
            year = first
            guard let m = scanner.number(maxDigits: 2), scanner.skip("-"), let d = scanner.number(maxDigits: 2) else { return nil }
            (month, day) = (m, d)
        } else {
            scanner = DigitScanner(text)
            guard let d = scanner.number(maxDigits: 2), scanner.skip("."), let m = scanner.number(maxDigits: 2), scanner.skip("."),
                  let y = scanner.number(maxDigits: 4), scanner.lastLength == 4 else { return nil }
            (year, month, day) = (y, m, d)
        }
        var parts = DateComponents(year: year, month: month, day: day)
        if scanner.atEnd {
            parts.hour = dayEdge == .end ? 23 : 0
            parts.minute = dayEdge == .end ? 59 : 0
            parts.second = dayEdge == .end ? 59 : 0
        } else {
            guard scanner.skip(" ") || scanner.skip("T") else { return nil }
            _ = scanner.skip(" ")
            guard let hour = scanner.number(maxDigits: 2), scanner.skip(":"), let minute = scanner.number(maxDigits: 2) else { return nil }
            parts.hour = hour
            parts.minute = minute
            parts.second = 0
            if scanner.skip(":") {
                guard let second = scanner.number(maxDigits: 2) else { return nil }
                parts.second = second
            }
            guard scanner.atEnd else { return nil }
        }
        guard (1...12).contains(month), (1...31).contains(day), (0...23).contains(parts.hour ?? 0),
              (0...59).contains(parts.minute ?? 0), (0...59).contains(parts.second ?? 0), (1900...9999).contains(year) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        guard let date = calendar.date(from: parts), calendar.component(.day, from: date) == day else { return nil }
        let instant = Timestamp(date)
        return dayEdge == .end && scanner.dateOnly ? instant.adding(milliseconds: 999) : instant
    }

    /// ISO 8601 with its own offset, read by Foundation.
    private static func zonedISO(_ text: String) -> Timestamp? {
        guard text.hasSuffix("Z") || text.range(of: #"[+-]\d\d:?\d\d$"#, options: .regularExpression) != nil,
              text.contains("T") else { return nil }
        let formatter = ISO8601DateFormatter()
        for options: ISO8601DateFormatter.Options in [[.withInternetDateTime, .withFractionalSeconds], [.withInternetDateTime]] {
            formatter.formatOptions = options
            if let date = formatter.date(from: text) { return Timestamp(date) }
        }
        return nil
    }

    /// Reads runs of ASCII digits and literal separators from the front of a cell.
    private struct DigitScanner {
        let scalars: [Unicode.Scalar]
        var index = 0
        var lastLength = 0
        var sawTime = false

        init(_ text: String) { scalars = Array(text.unicodeScalars) }

        var atEnd: Bool { index == scalars.count }
        var dateOnly: Bool { !sawTime }

        mutating func number(maxDigits: Int) -> Int? {
            var value = 0
            lastLength = 0
            while index < scalars.count, lastLength < maxDigits, let digit = scalars[index].properties.numericType == nil ? nil : Int(String(scalars[index])),
                  scalars[index].isASCII {
                value = value * 10 + digit
                index += 1
                lastLength += 1
            }
            return lastLength == 0 ? nil : value
        }

        mutating func skip(_ literal: Unicode.Scalar) -> Bool {
            guard index < scalars.count, scalars[index] == literal else { return false }
            if literal == ":" || literal == "T" || literal == " " { sawTime = true }
            index += 1
            return true
        }
    }
}
