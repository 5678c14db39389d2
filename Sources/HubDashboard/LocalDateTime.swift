import CheckInCore
import Foundation
import HubServer

/// A date and time as an `<input type="datetime-local">` gives and takes it (`2026-11-24T18:30`,
/// seconds optional), in an event's time zone: what an organizer types is the venue's clock.
enum LocalDateTime {
    /// The instant `text` names in `zone`, or `nil` when it is no such date and time.
    static func parse(_ text: String, in zone: TimeZone) -> Timestamp? {
        let text = text.trimmingCharacters(in: .whitespaces)
        guard text.utf8.count <= 32 else { return nil }
        for pattern in ["yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd HH:mm", "yyyy-MM-dd HH:mm:ss"] {
            let formatter = formatter(pattern, zone)
            formatter.isLenient = false
            if let date = formatter.date(from: text) { return Timestamp(milliseconds: Int64((date.timeIntervalSince1970 * 1000).rounded())) }
        }
        return nil
    }

    /// `timestamp` for the input's `value` (empty for none).
    static func format(_ timestamp: Timestamp?, in zone: TimeZone) -> String {
        guard let timestamp else { return "" }
        let seconds = min(max(Double(timestamp.milliseconds) / 1000, -62_135_596_800), 253_402_300_799)
        return formatter("yyyy-MM-dd'T'HH:mm", zone).string(from: Date(timeIntervalSince1970: seconds))
    }

    private static func formatter(_ pattern: String, _ zone: TimeZone) -> DateFormatter {
        // A fresh formatter per call: DateFormatter is not Sendable, and a form has two dates.
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.timeZone = zone
        formatter.dateFormat = pattern
        return formatter
    }
}
