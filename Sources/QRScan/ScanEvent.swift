import Foundation

/// What the scanning pipeline tells the station: one event per debounced code, plus camera
/// health. Payload text has passed ``PayloadHygiene``, so it is safe to show.
public enum ScanEvent: Sendable, Equatable {
    /// A readable code, reported once per debounce window.
    case scanned(payload: String, symbology: Symbologies, at: Date)
    /// A code was seen but must not be used (too long, control characters, invalid UTF-8):
    /// show "unreadable code", never its content.
    case unreadable(reason: PayloadHygiene.Rejection, at: Date)
    /// The frame source failed; a camera source keeps retrying (see ``ReconnectingSource``).
    case sourceFault(FrameSourceError, at: Date)
    /// Frames arrive again after a fault.
    case sourceRestored(at: Date)

    /// The event as one JSON line, with sorted keys (for `kiosk scan`).
    public var jsonLine: String {
        var members: [String: String] = ["at": Self.quote(Self.timestamp(at))]
        switch self {
        case .scanned(let payload, let symbology, _):
            members["event"] = Self.quote("scan")
            members["payload"] = Self.quote(payload)
            members["symbology"] = Self.quote(symbology == .code128 ? "code128" : "qr")
        case .unreadable(let reason, _):
            members["event"] = Self.quote("unreadable")
            members["reason"] = Self.quote(reason.rawValue)
            members["message"] = Self.quote("Unreadable code: please use the desk or type the code.")
        case .sourceFault(let error, _):
            members["event"] = Self.quote("source_fault")
            members["message"] = Self.quote(error.description)
            members["retrying"] = error.isRetryable ? "true" : "false"
        case .sourceRestored:
            members["event"] = Self.quote("source_restored")
        }
        return "{" + members.keys.sorted().map { Self.quote($0) + ":" + members[$0]! }.joined(separator: ",") + "}"
    }

    public var at: Date {
        switch self {
        case .scanned(_, _, let at), .unreadable(_, let at), .sourceFault(_, let at), .sourceRestored(let at): at
        }
    }

    private static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
    }

    private static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
                out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
