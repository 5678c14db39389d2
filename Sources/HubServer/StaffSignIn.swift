import CheckInCore
import HTTPTypes
import HubAPI
import Logging

/// The one sign-in decision, shared by the API (`POST /v1/auth/sign-in`) and the dashboard's
/// sign-in form: the same accounts, the same per-account and per-client throttles, the same
/// hashing gate and decoy, the same session row.
struct StaffSignIn {
    let hub: HubRoutes
    let sessions: any SessionRepository
    let staff: any StaffRepository

    /// What a successful sign-in made: the session and its (only) plaintext tokens.
    struct Outcome: Sendable {
        var account: StaffInfo
        var session: NewSession
        var accessToken: String
        var refreshToken: String
    }

    /// Checks the password and creates a session.
    /// - Parameters:
    ///   - client: the caller's address (``ClientAddress``), for the per-client throttle.
    ///   - accessSeconds: the access token's lifetime; the configured one when `nil`.
    /// - Throws: ``HubProblem`` 429 with `Retry-After` while throttled, 401 for a wrong e-mail or password.
    func signIn(email: String, password: String, client: String, accessSeconds: Int64? = nil, sessionSeconds: Int64? = nil) async throws -> Outcome {
        if let wait = hub.signInThrottle.secondsToWait(email) ?? hub.clientThrottle.secondsToWait(client)
            ?? hub.limiter.take("sign-in:" + SignInThrottle.key(email)) {
            var problem = HubProblem(.tooManyRequests, "Too many sign-in attempts", detail: "Retry after \(wait) s.")
            problem.retryAfterSeconds = wait
            throw problem
        }
        let account = try await staff.staff(email: email)
        // An unknown e-mail costs the same hashing as a known one: the time does not tell.
        let stored = account?.passwordHash ?? PasswordHasher.decoy
        let valid = try await hub.hashing.run { PasswordHasher.verify(password, against: stored) }
        guard valid, let account else {
            hub.signInThrottle.failed(email)
            hub.clientThrottle.failed(client)
            hub.metrics.signInRefused()
            hub.logger.notice("sign-in refused", metadata: [
                "email": "\(Sanitized.text(email))", "known": "\(account != nil)", "client": "\(Sanitized.text(client))",
            ])
            throw HubProblem(.unauthorized, "Wrong e-mail or password")
        }
        hub.signInThrottle.succeeded(email)
        if PasswordHasher.needsRehash(account.passwordHash), let fresh = try await hub.hashing.run({ try? PasswordHasher.hash(password) }) {
            // Made with fewer rounds (210,000 before): replaced now that the password is known.
            try await staff.upgradePasswordHash(staffID: account.info.id, fresh)
            hub.logger.info("password hash upgraded", metadata: ["staff": "\(account.info.id)", "rounds": "\(PasswordHasher.rounds)"])
        }
        let now = Timestamp.now()
        let lifetime = min(sessionSeconds ?? hub.configuration.sessionLifetimeSeconds, hub.configuration.sessionLifetimeSeconds)
        let ends = now.adding(milliseconds: HubRoutes.milliseconds(seconds: lifetime))
        let tokens = hub.newTokens(now: now, sessionEnds: ends, accessSeconds: accessSeconds)
        let session = NewSession(id: Tokens.identifier("ses"), staffID: account.info.id, tokens: tokens.hashes, createdAt: now, endsAt: ends)
        try await sessions.createSession(session)
        hub.logger.info("signed in", metadata: ["session": "\(session.id)", "role": "\(account.info.role.rawValue)"])
        return Outcome(account: account.info, session: session, accessToken: tokens.access, refreshToken: tokens.refresh)
    }
}
