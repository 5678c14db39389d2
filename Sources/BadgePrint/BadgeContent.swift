import Foundation
import CheckInCore

/// What goes on one guest's badge. Text is sanitized when the content is made, so control
/// characters from a roster never reach the renderer.
public struct BadgeContent: Sendable, Hashable {
    public var name: String
    public var company: String
    public var accessTypeID: String
    public var accessTypeName: String
    /// The ticket code, carried by the QR code.
    public var code: String

    public init(name: String, company: String = "", accessTypeID: String, accessTypeName: String, code: String) {
        self.name = Sanitized.text(name).trimmingCharacters(in: .whitespacesAndNewlines)
        self.company = Sanitized.text(company).trimmingCharacters(in: .whitespacesAndNewlines)
        self.accessTypeID = accessTypeID
        self.accessTypeName = Sanitized.text(accessTypeName).trimmingCharacters(in: .whitespacesAndNewlines)
        self.code = code
    }

    public init(guest: Guest, accessTypeName: String) {
        self.init(name: guest.name, company: guest.company, accessTypeID: guest.accessTypeID,
                  accessTypeName: accessTypeName, code: guest.code.value)
    }
}
