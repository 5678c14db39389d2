import CheckInCore
import Foundation

/// Reads one record of a roster into a guest, or says why it cannot be imported.
struct RosterRowReader {
    let columns: RosterColumns
    let headerCount: Int
    let options: RosterSheet.Options

    /// Eventbrite attendee statuses that keep the ticket out.
    static let cancelledStatuses: Set<String> = ["refunded", "cancelled", "canceled", "not attending", "deleted", "transferred"]

    func row(_ fields: [String], line: Int) -> Result<RosterRow, RosterRejection> {
        func reject(_ reason: String) -> Result<RosterRow, RosterRejection> { .failure(RosterRejection(line: line, reason: reason)) }
        if fields.count > headerCount {
            return reject("\(fields.count) fields but the header has \(headerCount): a delimiter inside an unquoted field?")
        }
        func field(_ index: Int?) -> String {
            guard let index, index < fields.count else { return "" }
            return fields[index].trimmedWhitespace()
        }
        if let long = fields.first(where: { $0.utf8.count > RosterCSVParser.maximumFieldLength && $0.count > RosterCSVParser.maximumFieldLength }) {
            return reject("a field is \(long.count) characters long (limit \(RosterCSVParser.maximumFieldLength))")
        }
        let rawCode = field(columns.code)
        guard !rawCode.isEmpty else { return reject("missing ticket code") }
        guard let code = TicketCode(normalizing: rawCode, caseInsensitive: options.caseInsensitiveCodes) else {
            return reject("ticket code is not usable (spaces or control characters inside)")
        }
        var name = field(columns.name)
        if name.isEmpty {
            name = [field(columns.firstName), field(columns.lastName)].filter { !$0.isEmpty }.joined(separator: " ")
        }
        if name.contains("\u{0}") { name = String(String.UnicodeScalarView(name.unicodeScalars.filter { $0 != "\u{0}" })) }
        guard !name.isEmpty else { return reject("missing name") }
        let email = field(columns.email)
        if !email.isEmpty && !RosterCSVParser.isPlausibleEmail(email) { return reject("e-mail address \"\(Sanitized.text(email))\" is not valid") }
        let accessType = field(columns.accessType)
        guard let blocked = RosterFlag.parse(field(columns.blocked)) else {
            return reject("blocked is \"\(Sanitized.text(field(columns.blocked)))\": write yes or no (also true/false, 1/0, x or empty)")
        }
        let cancelled = Self.cancelledStatuses.contains(field(columns.attendeeStatus).lowercased())
        var facts = TicketFacts(orderCode: field(columns.order))
        for (column, what, edge) in [(columns.validFrom, "valid from", RosterDate.Edge.start), (columns.validUntil, "valid until", .end),
                                     (columns.checkedIn, "checked in", .start)] {
            let text = field(column)
            guard !text.isEmpty else { continue }
            if column == columns.checkedIn, let flag = RosterFlag.parse(text) {
                // Older exports say only yes or no: checked in at some time before now.
                if flag { facts.checkedInBefore = options.importedAt }
                continue
            }
            guard let instant = RosterDate.parse(text, timeZone: options.timeZone, dayEdge: edge) else {
                return reject("\(what) is \"\(Sanitized.text(text))\", not a date: write 2026-11-24 08:30 (or ISO 8601 with its offset)")
            }
            switch what {
            case "valid from": facts.validFrom = instant
            case "valid until": facts.validUntil = instant
            default: facts.checkedInBefore = instant
            }
        }
        if let from = facts.validFrom, let until = facts.validUntil, until < from {
            return reject("valid until (\(field(columns.validUntil))) is before valid from (\(field(columns.validFrom)))")
        }
        facts.attention = Self.attentionNote(flagOrNote: field(columns.attention), text: field(columns.checkInText))
        return .success(RosterRow(
            line: line, code: code, name: name, email: email, company: field(columns.company),
            accessType: accessType.isEmpty ? "General" : accessType, revoked: blocked || cancelled, facts: facts))
    }

    /// The staff note: pretix's check-in text when there is one; otherwise an attention column
    /// that says yes gives a plain "Requires special attention", and one holding words is the
    /// note itself.
    static func attentionNote(flagOrNote: String, text: String) -> String? {
        if !text.isEmpty { return text }
        switch RosterFlag.parse(flagOrNote) {
        case .some(true): return "Requires special attention"
        case .some(false): return nil
        case nil: return flagOrNote
        }
    }
}
