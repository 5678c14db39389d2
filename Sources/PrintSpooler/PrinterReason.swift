/// One `printer-state-reasons` keyword with its severity (RFC 8011 §5.4.12): `media-empty-error`
/// is the keyword `media-empty` at severity `error`.
///
/// Only an error stops the printer: a `-warning` or `-report` informs (it is shown with its fix,
/// and the next badge is sent anyway). cupsd keeps the reasons its backend reported for a queue
/// until the queue's next job starts, so "out of labels" from a roll long reloaded is, at most, a
/// warning there; the printer asked directly says how it is now.
public struct PrinterReason: Sendable, Hashable {
    public enum Severity: String, Sendable, Hashable {
        case error, warning, report
        /// No suffix: cupsd's own reasons (`paused`, `cups-…`) and keywords of printers that send
        /// none. Read as an error.
        case unsuffixed
    }

    public var keyword: String
    public var severity: Severity

    public init(_ raw: String) {
        for severity in [Severity.error, .warning, .report] where raw.hasSuffix("-" + severity.rawValue) {
            keyword = String(raw.dropLast(severity.rawValue.count + 1))
            self.severity = severity
            return
        }
        keyword = raw
        severity = .unsuffixed
    }

    /// The printer cannot print until it is fixed.
    public var blocks: Bool { severity == .error || severity == .unsuffixed }

    /// Reasons the printer itself reports (its paper, cover, marker): cupsd only relays them, so
    /// when the printer answers for itself its own word is the current one.
    public var isDeviceCondition: Bool { Self.deviceKeywords.contains(keyword) }

    static let deviceKeywords: Set<String> = [
        "media-empty", "media-needed", "media-low", "media-jam", "door-open", "cover-open", "other", "offline",
        "marker-supply-low", "marker-supply-empty", "toner-low", "toner-empty", "input-tray-missing", "output-area-full",
    ]

    /// The reasons of a `printer-state-reasons` list, `none` left out.
    static func parse(_ reasons: [String]) -> [PrinterReason] {
        reasons.filter { $0 != "none" && !$0.isEmpty }.map(PrinterReason.init)
    }
}
