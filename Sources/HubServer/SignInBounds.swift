import HubAPI

/// What a sign-in may carry: an e-mail address of at most 254 bytes (RFC 5321's path limit)
/// and a password of at most 1,024. Checked before anything is looked up, hashed or remembered,
/// so a huge body costs the hub neither memory nor hashing; the body of a sign-in or a refresh is
/// not even read beyond ``bodyBytes`` (413), where other routes take batches of megabytes.
public enum SignInBounds {
    static let emailBytes = 254
    public static let passwordBytes = 1_024
    /// Room for both fields escaped as JSON (`\\uXXXX`, six bytes each) and the object around them.
    static let bodyBytes = 16 * 1_024

    package static func check(_ request: SignInRequest) throws {
        guard !request.email.isEmpty, request.email.utf8.count <= emailBytes else {
            throw HubProblem.invalid("email", "Give an e-mail address of 1 to \(emailBytes) bytes.")
        }
        guard request.password.utf8.count <= passwordBytes else {
            throw HubProblem.invalid("password", "A password has at most \(passwordBytes) bytes.")
        }
    }
}
