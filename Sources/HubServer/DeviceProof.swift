import Crypto
import Foundation

/// A browser's proof that it signed in to an account before (OWASP's device cookie): a random
/// device id and its HMAC under a key derived from the account's stored password hash, which
/// only the hub holds. Every hub process verifies it without a table; a new password (or a
/// rehash at more rounds) ends every proof made before, as it should. Sent in the `hub_device`
/// cookie; ``SignInLockout`` lets such a browser in while others guess the password.
package enum DeviceProof {
    package static let cookie = "hub_device"
    /// A year: a device is recognised at next season's event too, if its password is unchanged.
    package static let cookieSeconds = 365 * 86_400

    /// A new proof for `staffID`, whose stored hash is `passwordHash`.
    static func make(staffID: String, passwordHash: String) -> String {
        let device = Tokens.identifier("dev")
        return device + "." + mac(device, staffID: staffID, passwordHash: passwordHash)
    }

    /// The device id in `value` when it proves a sign-in to `staffID` (checked in constant time), else `nil`.
    static func device(in value: String?, staffID: String, passwordHash: String) -> String? {
        guard let value, value.utf8.count <= 128, let dot = value.firstIndex(of: ".") else { return nil }
        let device = String(value[..<dot]), presented = Array(value[value.index(after: dot)...].utf8)
        let expected = Array(mac(device, staffID: staffID, passwordHash: passwordHash).utf8)
        guard presented.count == expected.count else { return nil }
        var difference: UInt8 = 0
        for (a, b) in zip(presented, expected) { difference |= a ^ b }
        return difference == 0 ? device : nil
    }

    private static func mac(_ device: String, staffID: String, passwordHash: String) -> String {
        let key = SymmetricKey(data: SHA256.hash(data: Array(("checkin-hub device proof\u{0}" + passwordHash).utf8)))
        let code = HMAC<SHA256>.authenticationCode(for: Array((staffID + "\u{0}" + device).utf8), using: key)
        return Data(code).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
