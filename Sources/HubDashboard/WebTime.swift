import CheckInCore
import Foundation
import HubServer

/// Times as the dashboard shows them: in the event's time zone (``HubAPI/EventSummary/timeZone``),
/// so a hub in UTC shows a Berlin event in Berlin time. An unknown zone falls back to UTC and says so.
struct WebTime: Sendable {
    let zone: TimeZone
    /// The zone's name as shown beside times, e.g. `Europe/Berlin`.
    let zoneName: String

    init(timeZone identifier: String) {
        if let zone = TimeZone(identifier: identifier) {
            self.zone = zone
            zoneName = identifier
        } else {
            zone = TimeZone(identifier: "UTC")!
            zoneName = "UTC"
        }
    }

    /// `2026-11-24 18:30`.
    func dateTime(_ timestamp: Timestamp?) -> String {
        guard let timestamp else { return "" }
        return format(timestamp, "yyyy-MM-dd HH:mm")
    }

    /// `2026-11-24 18:30:05`: exports, where a spreadsheet sorts and reads it as a date.
    func stamp(_ timestamp: Timestamp?) -> String {
        guard let timestamp else { return "" }
        return format(timestamp, "yyyy-MM-dd HH:mm:ss")
    }

    /// `18:30:05`.
    func time(_ timestamp: Timestamp) -> String { format(timestamp, "HH:mm:ss") }

    private func format(_ timestamp: Timestamp, _ pattern: String) -> String {
        // A fresh formatter per call: DateFormatter is not Sendable, and a page formats few times.
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = pattern
        let seconds = Double(timestamp.milliseconds) / 1000
        // Dates an organizer typed may be anywhere in Int64: clamp to what Date can show.
        return formatter.string(from: Date(timeIntervalSince1970: min(max(seconds, -62_135_596_800), 253_402_300_799)))
    }
}
