import CheckInCore
import Foundation
import Synchronization

/// How far this station's clock is from the hub's, read from the `Date` header of the hub's
/// answers (one-second precision: plenty to tell a clock that is a day or a year off).
final class ServerClock: Sendable {
    private let skew = Mutex<Int64?>(nil)

    /// Local time minus the hub's time at its last answer, in milliseconds; `nil` before any.
    var skewMilliseconds: Int64? { skew.withLock { $0 } }

    /// Records the `Date` header of an answer received now.
    func observe(dateHeader: String?, receivedAt local: Timestamp = .now()) {
        guard let dateHeader, let hub = Self.parse(dateHeader) else { return }
        let (difference, overflow) = local.milliseconds.subtractingReportingOverflow(hub.milliseconds)
        guard !overflow else { return }
        skew.withLock { $0 = difference }
    }

    /// Parses an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`, RFC 9110 §5.6.7), the only form
    /// a conforming server sends.
    static func parse(_ text: String) -> Timestamp? {
        let parts = text.split(separator: " ")
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        guard parts.count == 6, parts[5] == "GMT", let day = Int32(parts[1]), let month = months.firstIndex(of: String(parts[2])),
              let year = Int32(parts[3]), (1970...9999).contains(year), (1...31).contains(day) else { return nil }
        let clock = parts[4].split(separator: ":").compactMap { Int32($0) }
        guard clock.count == 3, (0...23).contains(clock[0]), (0...59).contains(clock[1]), (0...60).contains(clock[2]) else { return nil }
        var fields = tm()
        fields.tm_year = year - 1900
        fields.tm_mon = Int32(month)
        fields.tm_mday = day
        fields.tm_hour = clock[0]
        fields.tm_min = clock[1]
        fields.tm_sec = clock[2]
        let seconds = timegm(&fields)
        guard seconds >= 0 else { return nil }
        return Timestamp(milliseconds: Int64(seconds) * 1000)
    }
}
