import CheckInCore
import Foundation
import GRDB
import Synchronization

/// The SQL functions through which the schema seals, opens and indexes guest data, bound to
/// the store's ``GuestCipher`` once its data key is unwrapped (before any migration runs):
///
/// | function | |
/// |---|---|
/// | `kiosk_seal(text)` | AES-GCM blob, NULL stays NULL |
/// | `kiosk_open(blob)` | the text; a damaged blob is an error naming it |
/// | `kiosk_code_digest(code)` | the keyed digest codes are looked up by |
/// | `kiosk_seal_guest(code, name, email, company)` | a guest's sealed record (``GuestFields``) |
/// | `kiosk_guest_field(record, 'name')` | one field of a sealed record: `code`, `name`, `email`, `company`, `attention`, `order`… |
/// | `kiosk_guest_facts(record)` | the ticket's facts of a sealed record in one value (``GuestFields/factsEncoded``), NULL without any |
/// | `kiosk_search_tokens(record)` | the guest's blind index |
/// | `kiosk_guest_matches(record, terms)` | every space-separated folded term is a substring of the guest's folded text |
///
/// 0008 sealed each field on its own; 0009 made them one record. The functions 0008 used on
/// the separate fields stay, for stores migrated from before it:
/// `kiosk_search_tokens(name, email, company, sealed_code)`.
final class CipherFunctions: Sendable {
    private let slot = Mutex<GuestCipher?>(nil)

    func install(_ cipher: GuestCipher) { slot.withLock { $0 = cipher } }

    var cipher: GuestCipher? { slot.withLock { $0 } }

    private func current() throws -> GuestCipher {
        guard let cipher else { throw DatabaseError(resultCode: .SQLITE_ERROR, message: "the storage key is not loaded") }
        return cipher
    }

    func register(on db: Database) {
        db.add(function: DatabaseFunction("kiosk_seal", argumentCount: 1, pure: false) { [self] values in
            guard let text = String.fromDatabaseValue(values[0]) else { return nil }
            return try current().seal(text)
        })
        db.add(function: DatabaseFunction("kiosk_open", argumentCount: 1, pure: true) { [self] values in
            try open(values[0])
        })
        db.add(function: DatabaseFunction("kiosk_code_digest", argumentCount: 1, pure: true) { [self] values in
            guard let code = String.fromDatabaseValue(values[0]) else { return nil }
            return try current().codeDigest(code)
        })
        db.add(function: DatabaseFunction("kiosk_search_tokens", argumentCount: 4, pure: true) { [self] values in
            let parts = try values.prefix(4).map { try open($0) ?? "" }
            return try current().searchTokens(SearchText.fold(parts.joined(separator: " ")))
        })
        db.add(function: DatabaseFunction("kiosk_seal_guest", argumentCount: 4, pure: false) { [self] values in
            let text = values.map { String.fromDatabaseValue($0) ?? "" }
            return try current().seal(GuestFields(code: text[0], name: text[1], email: text[2], company: text[3]))
        })
        db.add(function: DatabaseFunction("kiosk_guest_field", argumentCount: 2, pure: true) { [self] values in
            guard let fields = try record(values[0]) else { return nil }
            guard let field = String.fromDatabaseValue(values[1]).flatMap(GuestFields.Field.init(rawValue:)) else {
                throw DatabaseError(resultCode: .SQLITE_ERROR, message: "kiosk_guest_field: no field \(values[1])")
            }
            return fields[field]
        })
        // The sealed record without the questions the door just had answered (ids comma-separated):
        // a re-entry before the next download is not asked them again.
        db.add(function: DatabaseFunction("kiosk_guest_answered", argumentCount: 2, pure: false) { [self] values in
            guard var fields = try record(values[0]) else { return values[0] }
            let answered = Set((String.fromDatabaseValue(values[1]) ?? "").split(separator: ",").map(String.init))
            fields.facts.questionsToAsk.removeAll { answered.contains($0) }
            return try current().seal(fields)
        })
        db.add(function: DatabaseFunction("kiosk_guest_facts", argumentCount: 1, pure: true) { [self] values in
            try record(values[0])?.factsEncoded
        })
        db.add(function: DatabaseFunction("kiosk_search_tokens", argumentCount: 1, pure: true) { [self] values in
            try current().searchTokens(SearchText.fold(try record(values[0])?.searchableText ?? ""))
        })
        db.add(function: DatabaseFunction("kiosk_guest_matches", argumentCount: 2, pure: true) { [self] values in
            let text = SearchText.fold(try record(values[0])?.searchableText ?? "")
            let terms = String.fromDatabaseValue(values[1]) ?? ""
            // Bytes, as SQLite's instr compared them: not Character equivalence.
            let bytes = Array(text.utf8)
            return terms.split(separator: " ").allSatisfy { bytes.firstRange(of: Array($0.utf8)) != nil }
        })
    }

    /// The record opened last: a row's fields are asked for one by one, each
    /// `kiosk_guest_field` of the same record.
    private let lastRecord = Mutex<(sealed: Data, fields: GuestFields)?>(nil)

    /// A sealed record's fields; a damaged one is an error naming it.
    private func record(_ value: DatabaseValue) throws -> GuestFields? {
        guard case .blob(let data) = value.storage else { return nil }
        if let last = lastRecord.withLock({ $0 }), last.sealed == data { return last.fields }
        do {
            let fields = try current().open(record: data)
            lastRecord.withLock { $0 = (data, fields) }
            return fields
        } catch let error as StorageKeyError {
            throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: error.description)
        }
    }

    /// A sealed value's text. Text that was never sealed passes as it is (nothing writes it
    /// since 0008; the leak tests would see it).
    private func open(_ value: DatabaseValue) throws -> String? {
        switch value.storage {
        case .null: return nil
        case .blob(let data):
            do { return try current().open(data) } catch let error as StorageKeyError {
                throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: error.description)
            }
        case .string(let text): return text
        case .int64(let number): return String(number)
        case .double(let number): return String(number)
        }
    }
}
