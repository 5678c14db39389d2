import Crypto
import Foundation
import HubServer

/// Stateless CSRF tokens: HMAC-SHA256 of a purpose under a secret only the server and the
/// browser's `HttpOnly` cookie hold (the session's access token, whose hash the session row
/// keeps; before sign-in, the sign-in form's own random cookie). Another site can neither read
/// the cookie nor compute the token, and every hub process computes the same one: no table, no
/// process state.
enum CSRFToken {
    /// The token for forms of `purpose` (e.g. `session:ses_…`, `signin`) under `secret`.
    static func make(secret: String, purpose: String) -> String {
        let key = SymmetricKey(data: SHA256.hash(data: Array(("checkin-hub dashboard csrf\u{0}" + secret).utf8)))
        let mac = HMAC<SHA256>.authenticationCode(for: Array(purpose.utf8), using: key)
        return Data(mac).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// Whether `presented` is the token for `purpose` under `secret`, compared in constant time.
    static func verify(_ presented: String?, secret: String, purpose: String) -> Bool {
        guard let presented else { return false }
        let expected = Array(make(secret: secret, purpose: purpose).utf8), actual = Array(presented.utf8)
        guard expected.count == actual.count else { return false }
        var difference: UInt8 = 0
        for (a, b) in zip(expected, actual) { difference |= a ^ b }
        return difference == 0
    }
}
