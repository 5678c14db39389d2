import HTTPTypes

/// What a new password must be, wherever it is set (`checkin-hub staff add | passwd`, the
/// dashboard's staff page): at least ``minimumCharacters``, at most the sign-in's byte bound.
public enum NewPassword {
    public static let minimumCharacters = 8

    /// Why `password` cannot be set, in words, or `nil`.
    public static func problem(_ password: String) -> String? {
        if password.count < minimumCharacters { return "The password needs at least \(minimumCharacters) characters." }
        if password.utf8.count > SignInBounds.passwordBytes { return "The password may have at most \(SignInBounds.passwordBytes) bytes." }
        return nil
    }
}

extension HashingGate {
    /// Hashes a new password as sign-in hashes (``PasswordHasher``, the configured rounds),
    /// through this gate: off the cooperative pool, a bounded number at a time, in the
    /// administration lane, ahead of any sign-in.
    package func hashNewPassword(_ password: String) async throws -> String {
        guard let hash = try await run(in: .administration, { try? PasswordHasher.hash(password) }) else {
            throw HubProblem(.internalServerError, "The password could not be hashed")
        }
        return hash
    }
}
