/// Why pretix refuses a scan (`reason` of a redeem answer, `error_reason` of a failed check-in).
public enum PretixReason: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Unknown secret (also: a list for another date of a series).
    case invalid
    case unpaid
    case blocked
    /// Outside the ticket's validity.
    case invalidTime
    case canceled
    case alreadyRedeemed
    /// The product is not on the list.
    case product
    /// The list's rules refused it.
    case rules
    case ambiguous
    case revoked
    case unapproved
    /// Questions must be answered first (a redeem's `incomplete`).
    case incomplete
    case error
    /// A reason this station does not know (a newer pretix, reusable media).
    case other(String)

    public init(_ code: String) {
        switch code {
        case "invalid": self = .invalid
        case "unpaid": self = .unpaid
        case "blocked": self = .blocked
        case "invalid_time": self = .invalidTime
        case "canceled": self = .canceled
        case "already_redeemed": self = .alreadyRedeemed
        case "product": self = .product
        case "rules": self = .rules
        case "ambiguous": self = .ambiguous
        case "revoked": self = .revoked
        case "unapproved": self = .unapproved
        case "incomplete": self = .incomplete
        case "error": self = .error
        default: self = .other(code)
        }
    }

    /// pretix's code.
    public var code: String {
        switch self {
        case .invalid: "invalid"
        case .unpaid: "unpaid"
        case .blocked: "blocked"
        case .invalidTime: "invalid_time"
        case .canceled: "canceled"
        case .alreadyRedeemed: "already_redeemed"
        case .product: "product"
        case .rules: "rules"
        case .ambiguous: "ambiguous"
        case .revoked: "revoked"
        case .unapproved: "unapproved"
        case .incomplete: "incomplete"
        case .error: "error"
        case .other(let code): code
        }
    }

    public var description: String { code }

    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(code)
    }
}
