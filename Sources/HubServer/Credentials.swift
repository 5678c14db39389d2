import Crypto
import Foundation
import _CryptoExtras

/// Password hashing: PBKDF2-HMAC-SHA256 (swift-crypto, already linked through postgres-nio),
/// stored as `pbkdf2-sha256$ROUNDS$SALT$HASH` with base64 salt and hash.
public enum PasswordHasher {
    /// OWASP's figure for PBKDF2-HMAC-SHA256 (2023). Hashes made with fewer (210,000 before)
    /// still verify, and are replaced at the next successful sign-in (``needsRehash(_:)``).
    public static let defaultRounds = 600_000
    /// Stored hashes below this, or above ``maximumRounds``, are refused outright.
    static let minimumRounds = 210_000
    static let maximumRounds = 10_000_000
    /// The environment variable that lowers (or raises) the rounds of new hashes, within
    /// ``minimumRounds`` and ``maximumRounds``: the test suite signs in hundreds of times and sets
    /// it to 210,000 so that it does not starve a 2-core CI machine; one test runs at the default.
    public static let roundsVariable = "CHECKIN_HUB_PASSWORD_ROUNDS"

    /// Rounds of new hashes (and of the decoy): ``defaultRounds`` unless ``roundsVariable`` says otherwise.
    public static let rounds: Int = {
        guard let text = ProcessInfo.processInfo.environment[roundsVariable], let value = Int(text) else { return defaultRounds }
        return min(max(value, minimumRounds), maximumRounds)
    }()

    public static func hash(_ password: String, rounds: Int = rounds) throws -> String {
        let salt = Tokens.randomBytes(16)
        let key = try KDF.Insecure.PBKDF2.deriveKey(from: Array(password.utf8), salt: salt, using: .sha256, outputByteCount: 32, rounds: rounds)
        let hash = key.withUnsafeBytes { Data($0) }
        return "pbkdf2-sha256$\(rounds)$\(Data(salt).base64EncodedString())$\(hash.base64EncodedString())"
    }

    /// A hash no password matches, checked for unknown e-mails so they cost what known ones do.
    package static let decoy = (try? hash(Tokens.token())) ?? ""

    /// Whether `stored` was made with fewer rounds than ``rounds``: hash the password again.
    public static func needsRehash(_ stored: String) -> Bool {
        let parts = stored.split(separator: "$")
        guard parts.count == 4, let made = Int(parts[1]) else { return false }
        return made < rounds
    }

    public static func verify(_ password: String, against stored: String) -> Bool {
        let parts = stored.split(separator: "$")
        guard parts.count == 4, parts[0] == "pbkdf2-sha256", let rounds = Int(parts[1]), rounds >= minimumRounds, rounds <= maximumRounds,
              let salt = Data(base64Encoded: String(parts[2])), let expected = Data(base64Encoded: String(parts[3])),
              let key = try? KDF.Insecure.PBKDF2.deriveKey(from: Array(password.utf8), salt: salt, using: .sha256, outputByteCount: expected.count, rounds: rounds)
        else { return false }
        let actual = key.withUnsafeBytes { Data($0) }
        // Constant time: compare every byte.
        guard actual.count == expected.count else { return false }
        var difference: UInt8 = 0
        for (a, b) in zip(actual, expected) { difference |= a ^ b }
        return difference == 0
    }
}

/// Random tokens and ids. Tokens are 256-bit random, base64url; only their SHA-256 is stored.
public enum Tokens {
    static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    public static func token() -> String {
        Data(randomBytes(32)).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// A short random id with a prefix, e.g. `ev_3f9c2a7b1d04`.
    public static func identifier(_ prefix: String) -> String {
        prefix + "_" + randomBytes(8).hexString
    }

    public static func hash(_ token: String) -> String {
        SHA256.hash(data: Array(token.utf8)).hexString
    }
}
