import CheckInCore
import Crypto
import Foundation

/// A guest's attendee fields, sealed together in one AES-GCM record (`guests.sealed`,
/// 0009_sealed_guest_record.sql): one seal and one open per guest instead of one per field,
/// which was most of the cost of sealing a 100k import.
///
/// Encoding (inside the seal): for each field in order, its UTF-8 length as 4 bytes, little
/// endian, then its bytes. The fields are code, name, e-mail, company, then the ticket's facts
/// from the export (0010_ticket_facts.sql): staff note, order code, valid from, valid until,
/// checked in before import, then (0.9, pretix) the shop's refusal, the shop's ticket id and when
/// another device printed its badge; instants as decimal milliseconds, empty when absent. A record
/// written before a field existed ends before it and reads that field as absent (the first four
/// only, written before 0010, read with no facts).
struct GuestFields: Sendable, Equatable {
    var code: String
    var name: String
    var email: String
    var company: String
    var facts: TicketFacts

    /// A field by the name SQL asks for it (`kiosk_guest_field(sealed, 'name')`).
    enum Field: String, CaseIterable, Sendable {
        case code, name, email, company, attention, order
        case validFrom = "valid_from"
        case validUntil = "valid_until"
        case checkedInBefore = "checked_in_before"
        /// Added in 0.9 (pretix): records written before end at `checked_in_before`.
        case refusal
        /// Added in 0.9 (pretix's position id and print logs): records written before end earlier.
        case shopTicket = "shop_ticket"
        case badgePrintedElsewhere = "badge_printed_elsewhere"
        /// Added with pretix's questions shown at the door: one answer per line.
        case shownAnswers = "shown_answers"
        /// Added with pretix's questions asked at the door: the unanswered questions' ids, comma-separated.
        case questionsToAsk = "questions_to_ask"
    }


    subscript(field: Field) -> String {
        switch field {
        case .code: code
        case .name: name
        case .email: email
        case .company: company
        case .attention: facts.attention ?? ""
        case .order: facts.orderCode
        case .validFrom: facts.validFrom.map { String($0.milliseconds) } ?? ""
        case .validUntil: facts.validUntil.map { String($0.milliseconds) } ?? ""
        case .checkedInBefore: facts.checkedInBefore.map { String($0.milliseconds) } ?? ""
        case .refusal: facts.refusal?.rawValue ?? ""
        case .shopTicket: facts.shopTicketID ?? ""
        case .badgePrintedElsewhere: facts.badgePrintedElsewhere.map { String($0.milliseconds) } ?? ""
        case .shownAnswers: facts.shownAnswers.joined(separator: "\n")
        case .questionsToAsk: facts.questionsToAsk.joined(separator: ",")
        }
    }

    /// The ticket's facts alone, as `kiosk_guest_facts` hands them to a row read in one value
    /// instead of five field calls (a check-in's and a search's reads): nil without any.
    var factsEncoded: Data? {
        guard facts != TicketFacts() else { return nil }
        var data = Data()
        for field in Field.allCases.dropFirst(4) { Self.append(self[field], to: &data) }
        return data
    }

    /// Facts from ``factsEncoded`` (none from NULL or anything else).
    static func facts(encoded data: Data?) -> TicketFacts {
        guard let data, let fields = strings(data, count: Field.allCases.count - 4), fields.count >= 5 else { return TicketFacts() }
        return facts(fields)
    }

    /// Facts from the fields after the first four, as many as the record has (at least five).
    private static func facts(_ fields: [String]) -> TicketFacts {
        func instant(_ text: String) -> Timestamp? { Int64(text).map(Timestamp.init(milliseconds:)) }
        func field(_ index: Int) -> String { index < fields.count ? fields[index] : "" }
        return TicketFacts(validFrom: instant(fields[2]), validUntil: instant(fields[3]), attention: fields[0].isEmpty ? nil : fields[0],
                           orderCode: fields[1], checkedInBefore: instant(fields[4]), refusal: TicketRefusal(rawValue: field(5)),
                           shopTicketID: field(6).isEmpty ? nil : field(6), badgePrintedElsewhere: instant(field(7)),
                           shownAnswers: field(8).split(separator: "\n").map(String.init),
                           questionsToAsk: field(9).split(separator: ",").map(String.init))
    }

    private static func append(_ field: String, to data: inout Data) {
        let count = UInt32(field.utf8.count)
        withUnsafeBytes(of: count.littleEndian) { data.append(contentsOf: $0) }
        data.append(contentsOf: field.utf8)
    }

    /// Up to `count` length-prefixed strings filling `data` exactly; nil when it is not that.
    private static func strings(_ data: Data, count limit: Int) -> [String]? {
        var fields: [String] = []
        var offset = data.startIndex
        while offset < data.endIndex && fields.count < limit {
            guard data.endIndex - offset >= 4 else { return nil }
            let count = data[offset..<(offset + 4)].reversed().reduce(0) { $0 << 8 | Int($1) }
            offset += 4
            guard data.endIndex - offset >= count else { return nil }
            fields.append(String(decoding: data[offset..<(offset + count)], as: UTF8.self))
            offset += count
        }
        return offset == data.endIndex ? fields : nil
    }

    /// What search looks in, as the plaintext search folded it: name, e-mail, company, code,
    /// and the order code (staff find a family's tickets by their order).
    var searchableText: String { [name, email, company, code, facts.orderCode].joined(separator: " ") }

    private var allFields: [String] { Field.allCases.map { self[$0] } }

    var encoded: Data {
        var data = Data()
        let fields = allFields
        data.reserveCapacity(fields.reduce(4 * fields.count) { $0 + $1.utf8.count })
        for field in fields { Self.append(field, to: &data) }
        return data
    }

    /// The fields of an opened record; nil when it is not one (the seal authenticated it, so
    /// only a record written by something else gets here).
    init?(encoded data: Data) {
        guard let fields = Self.strings(data, count: Field.allCases.count), fields.count == 4 || (9...Field.allCases.count).contains(fields.count)
        else { return nil }
        (code, name, email, company) = (fields[0], fields[1], fields[2], fields[3])
        facts = fields.count > 4 ? Self.facts(Array(fields[4...])) : TicketFacts()
    }


    init(code: String, name: String, email: String, company: String, facts: TicketFacts = TicketFacts()) {
        (self.code, self.name, self.email, self.company, self.facts) = (code, name, email, company, facts)
    }
}

extension GuestCipher {
    /// A guest's sealed record.
    func seal(_ fields: GuestFields) -> Data { seal(bytes: fields.encoded, with: sealKey) }

    func seal(_ fields: GuestFields, nonce: AES.GCM.Nonce) -> Data { seal(bytes: fields.encoded, nonce: nonce) }

    /// The fields of a sealed record.
    func open(record sealed: Data) throws(StorageKeyError) -> GuestFields {
        guard let fields = GuestFields(encoded: try open(bytes: sealed, with: sealKey, what: "guest data")) else {
            throw .damaged(what: "guest data")
        }
        return fields
    }
}

extension GuestFields {
    init(_ guest: Guest) {
        self.init(code: guest.code.value, name: guest.name, email: guest.email, company: guest.company, facts: guest.facts)
    }
}
