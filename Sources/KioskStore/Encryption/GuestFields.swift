import CheckInCore
import Crypto
import Foundation

/// A guest's attendee fields, sealed together in one AES-GCM record (`guests.sealed`,
/// 0009_sealed_guest_record.sql): one seal and one open per guest instead of one per field,
/// which was most of the cost of sealing a 100k import.
///
/// Encoding (inside the seal): for each field in order, its UTF-8 length as 4 bytes, little
/// endian, then its bytes.
struct GuestFields: Sendable, Equatable {
    var code: String
    var name: String
    var email: String
    var company: String

    /// A field by the name SQL asks for it (`kiosk_guest_field(sealed, 'name')`).
    enum Field: String, CaseIterable, Sendable {
        case code, name, email, company
    }

    subscript(field: Field) -> String {
        switch field {
        case .code: code
        case .name: name
        case .email: email
        case .company: company
        }
    }

    /// What search looks in, as the plaintext search folded it: name, e-mail, company, code.
    var searchableText: String { [name, email, company, code].joined(separator: " ") }

    var encoded: Data {
        var data = Data()
        data.reserveCapacity(16 + code.utf8.count + name.utf8.count + email.utf8.count + company.utf8.count)
        for field in [code, name, email, company] {
            let count = UInt32(field.utf8.count)
            withUnsafeBytes(of: count.littleEndian) { data.append(contentsOf: $0) }
            data.append(contentsOf: field.utf8)
        }
        return data
    }

    /// The fields of an opened record; nil when it is not one (the seal authenticated it, so
    /// only a record written by something else gets here).
    init?(encoded data: Data) {
        var fields: [String] = []
        var offset = data.startIndex
        while fields.count < 4 {
            guard data.endIndex - offset >= 4 else { return nil }
            let count = data[offset..<(offset + 4)].reversed().reduce(0) { $0 << 8 | Int($1) }
            offset += 4
            guard data.endIndex - offset >= count else { return nil }
            fields.append(String(decoding: data[offset..<(offset + count)], as: UTF8.self))
            offset += count
        }
        guard offset == data.endIndex else { return nil }
        (code, name, email, company) = (fields[0], fields[1], fields[2], fields[3])
    }

    init(code: String, name: String, email: String, company: String) {
        (self.code, self.name, self.email, self.company) = (code, name, email, company)
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
        self.init(code: guest.code.value, name: guest.name, email: guest.email, company: guest.company)
    }
}
