import CheckInCore
/// Where each field sits in a header row, for the exports organizers actually have:
/// a generic sheet, pretix's attendee/check-in list export, and Eventbrite's attendee report.
struct RosterColumns {
    var code: Int
    var name: Int?
    var firstName: Int?
    var lastName: Int?
    var email: Int?
    var company: Int?
    var accessType: Int?
    /// pretix's `Blocked`, a generic `blocked` column: yes/no values (``RosterFlag``).
    var blocked: Int?
    /// Eventbrite's `Attendee Status`: refunded, cancelled and not-attending tickets are revoked.
    var attendeeStatus: Int?
    /// pretix `Order code`, Eventbrite `Order #`, a generic `order` column.
    var order: Int?
    /// pretix `Valid from` / `Valid until`, generic `valid_from` / `valid_until`.
    var validFrom: Int?
    var validUntil: Int?
    /// pretix `Requires special attention` (yes/no), generic `attention` (yes/no or the note itself).
    var attention: Int?
    /// pretix `Check-in text`: the note the staff see.
    var checkInText: Int?
    /// pretix `Checked in`: when the ticketing system admitted the ticket, if it did.
    var checkedIn: Int?
    var format: String

    static let codeHeaders = ["code", "ticket code", "ticket", "secret", "barcode", "barcode #", "ticket secret", "qr code", "ticket id"]
    static let nameHeaders = ["name", "full name", "attendee name", "attendee", "guest name"]
    static let firstNameHeaders = ["first name", "firstname", "given name", "attendee name: given name", "forename"]
    static let lastNameHeaders = ["last name", "lastname", "surname", "family name", "attendee name: family name"]
    static let emailHeaders = ["email", "e-mail", "email address", "e-mail address", "attendee email", "attendee e-mail", "mail"]
    static let companyHeaders = ["company", "organization", "organisation", "company name", "attendee company"]
    static let accessTypeHeaders = ["access type", "ticket type", "product", "ticket name", "category", "type"]
    static let blockedHeaders = ["blocked", "revoked"]
    static let attendeeStatusHeaders = ["attendee status"]
    static let orderHeaders = ["order code", "order", "order #", "order number", "order no", "order id"]
    static let validFromHeaders = ["valid from"]
    static let validUntilHeaders = ["valid until", "valid to"]
    static let attentionHeaders = ["requires special attention", "special attention", "attention"]
    static let checkInTextHeaders = ["check in text", "checkin text"]
    static let checkedInHeaders = ["checked in", "checked in at"]

    /// Lower-cased, `_`/`-` separators as spaces (except in "e-mail"), spaces collapsed.
    static func normalize(_ header: String) -> String {
        var text = header.lowercased().trimmingCharacters(in: .whitespaces)
        if text != "e-mail" && !text.hasSuffix(" e-mail") && !text.hasPrefix("e-mail ") {
            text = text.replacingOccurrences(of: "_", with: " ").replacingOccurrences(of: "-", with: " ")
        } else {
            text = text.replacingOccurrences(of: "_", with: " ")
        }
        return text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }

    /// What the recognised columns hold, in the file's order (for the import's report).
    var recognised: [String] {
        [(code, "ticket code"), (name, "name"), (firstName, "first name"), (lastName, "last name"), (email, "e-mail"),
         (company, "company"), (accessType, "access type"), (blocked, "blocked"), (attendeeStatus, "attendee status"),
         (order, "order"), (validFrom, "valid from"), (validUntil, "valid until"), (attention, "attention"),
         (checkInText, "check-in text"), (checkedIn, "checked in")]
            .compactMap { index, what in index.map { ($0, what) } }
            .sorted { $0.0 < $1.0 }
            .map(\.1)
    }

    /// The fields a record is read from.
    var used: Set<Int> {
        Set([code, name, firstName, lastName, email, company, accessType, blocked, attendeeStatus, order, validFrom, validUntil,
             attention, checkInText, checkedIn].compactMap { $0 })
    }

    /// The header's fields no column uses, as written (blank ones left out).
    func ignored(_ header: [String]) -> [String] {
        let used = used
        return header.enumerated().filter { !used.contains($0.offset) && !$0.element.trimmedWhitespace().isEmpty }.map(\.element)
    }

    static var allKnownHeaders: [String] {
        codeHeaders + nameHeaders + firstNameHeaders + lastNameHeaders + emailHeaders + companyHeaders + accessTypeHeaders
            + blockedHeaders + attendeeStatusHeaders + orderHeaders + validFromHeaders + validUntilHeaders + attentionHeaders
            + checkInTextHeaders + checkedInHeaders
    }

    /// How many of a header's fields name a column this reader knows (delimiter detection).
    static func recognisedCount(_ header: [String]) -> Int {
        let known = Set(allKnownHeaders)
        return header.map(normalize).filter(known.contains).count
    }

    init(header: [String]) throws(RosterFileError) {
        let normalized = header.map(Self.normalize)
        func find(_ names: [String]) -> Int? {
            for name in names { if let index = normalized.firstIndex(of: name) { return index } }
            return nil
        }
        guard let code = find(Self.codeHeaders) else { throw .missingColumn("ticket code", header: header) }
        self.code = code
        self.name = find(Self.nameHeaders)
        self.firstName = find(Self.firstNameHeaders)
        self.lastName = find(Self.lastNameHeaders)
        guard name != nil || firstName != nil || lastName != nil else { throw .missingColumn("name", header: header) }
        self.email = find(Self.emailHeaders)
        self.company = find(Self.companyHeaders)
        self.accessType = find(Self.accessTypeHeaders)
        self.blocked = find(Self.blockedHeaders)
        self.attendeeStatus = find(Self.attendeeStatusHeaders)
        self.order = find(Self.orderHeaders)
        self.validFrom = find(Self.validFromHeaders)
        self.validUntil = find(Self.validUntilHeaders)
        self.attention = find(Self.attentionHeaders)
        self.checkInText = find(Self.checkInTextHeaders)
        self.checkedIn = find(Self.checkedInHeaders)
        if normalized.contains("barcode #") { format = "eventbrite" }
        else if normalized.contains("order code") && (normalized.contains("secret") || normalized.contains("attendee name")) { format = "pretix" }
        else { format = "generic" }
    }
}

import Foundation
