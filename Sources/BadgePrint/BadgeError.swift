/// Failures of badge rendering, each saying what the organizer or operator should do.
public enum BadgeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A template file is unreadable or has a bad value.
    case badTemplate(String)
    /// cairo could not produce the output (e.g. the output file cannot be written).
    case renderFailed(String)
    /// The ticket code does not fit in a QR code.
    case qrFailed

    public var detail: String {
        switch self {
        case .badTemplate(let detail), .renderFailed(let detail): detail
        case .qrFailed: "the ticket code is too long for a QR code"
        }
    }

    public var description: String {
        switch self {
        case .badTemplate(let detail): "Badge template: \(detail). Fix the template file, or remove it to use the default."
        case .renderFailed(let detail): "Cannot render the badge: \(detail)."
        case .qrFailed: "Cannot draw the badge's QR code: the ticket code is too long. The badge prints without it if you set qr_size_mm to 0."
        }
    }
}
