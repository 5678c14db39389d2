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
/// | `kiosk_search_tokens(name, email, company, sealed_code)` | the guest's blind index |
/// | `kiosk_guest_matches(name, email, company, sealed_code, terms)` | every space-separated folded term is a substring of the guest's folded text |
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
            try current().searchTokens(folded(values))
        })
        db.add(function: DatabaseFunction("kiosk_guest_matches", argumentCount: 5, pure: true) { [self] values in
            let text = try folded(values)
            let terms = String.fromDatabaseValue(values[4]) ?? ""
            // Bytes, as SQLite's instr compared them: not Character equivalence.
            let bytes = Array(text.utf8)
            return terms.split(separator: " ").allSatisfy { bytes.firstRange(of: Array($0.utf8)) != nil }
        })
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

    /// The guest's folded searchable text, as 0002_guest_search.sql built it in plaintext.
    private func folded(_ values: [DatabaseValue]) throws -> String {
        let parts = try values.prefix(4).map { try open($0) ?? "" }
        return SearchText.fold(parts.joined(separator: " "))
    }
}
