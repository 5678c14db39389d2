import CheckInCore
import Crypto
import Foundation
import HTTPTypes
import HubAPI
import Logging

/// The one sign-in decision, shared by the API (`POST /v1/auth/sign-in`) and the dashboard's
/// sign-in form: the same accounts, the same lockout (``SignInLockout``), the same hashing lanes
/// and decoy, the same session row.
package struct StaffSignIn {
    let hub: HubRoutes
    let sessions: any SessionRepository
    let staff: any StaffRepository

    package init(hub: HubRoutes, sessions: any SessionRepository, staff: any StaffRepository) {
        (self.hub, self.sessions, self.staff) = (hub, sessions, staff)
    }

    /// What a successful sign-in made: the session and its (only) plaintext tokens.
    package struct Outcome: Sendable {
        var account: StaffInfo
        package var session: NewSession
        package var accessToken: String
        var refreshToken: String
        /// A fresh device proof for the browser to keep (``DeviceProof``).
        package var deviceProof: String
    }

    /// Checks the password and creates a session.
    /// - Parameters:
    ///   - client: the caller's address (``ClientAddress``), for the lockout.
    ///   - deviceProof: the browser's `hub_device` cookie, if any.
    ///   - accessSeconds: the access token's lifetime; the configured one when `nil`.
    /// - Throws: ``HubProblem`` 429 with `Retry-After` while held back, 401 for a wrong e-mail or password.
    package func signIn(email: String, password: String, client: String, deviceProof: String? = nil, accessSeconds: Int64? = nil,
                sessionSeconds: Int64? = nil) async throws -> Outcome {
        if let wait = hub.limiter.take("sign-in:" + SignInThrottle.key(email)) { throw Self.heldBack(wait) }
        let account = try await staff.staff(email: email)
        let clientKey = ClientAddress.key(client)
        var attempt = SignInLockout.Attempt(email: email, client: clientKey)
        if let account {
            if let device = DeviceProof.device(in: deviceProof, staffID: account.info.id, passwordHash: account.passwordHash) {
                attempt.recognisedAs = "device:" + device
            } else if hub.lockout.recognised.contains(staffID: account.info.id, client: clientKey) {
                attempt.recognisedAs = clientKey
            }
        }
        if let wait = hub.lockout.secondsToWait(attempt) {
            if let account, attempt.recognisedAs == nil { hub.lockout.guessed.heldBack(account.info) }
            throw Self.heldBack(wait)
        }
        guard let account, try await verify(password, against: account.passwordHash) else {
            try await refuse(attempt, account: account?.info, password: password)
            throw HubProblem(.unauthorized, "Wrong e-mail or password")
        }
        hub.lockout.succeeded(attempt, staffID: account.info.id)
        var passwordHash = account.passwordHash
        if PasswordHasher.needsRehash(passwordHash), let fresh = try await hub.hashing.run({ try? PasswordHasher.hash(password) }) {
            // Made with fewer rounds (210,000 before): replaced now that the password is known.
            try await staff.upgradePasswordHash(staffID: account.info.id, fresh)
            passwordHash = fresh
            hub.logger.info("password hash upgraded", metadata: ["staff": "\(account.info.id)", "rounds": "\(PasswordHasher.rounds)"])
        }
        let now = Timestamp.now()
        let lifetime = min(sessionSeconds ?? hub.configuration.sessionLifetimeSeconds, hub.configuration.sessionLifetimeSeconds)
        let ends = now.adding(milliseconds: HubRoutes.milliseconds(seconds: lifetime))
        let tokens = hub.newTokens(now: now, sessionEnds: ends, accessSeconds: accessSeconds)
        let session = NewSession(id: Tokens.identifier("ses"), staffID: account.info.id, tokens: tokens.hashes, createdAt: now, endsAt: ends)
        try await sessions.createSession(session)
        hub.logger.info("signed in", metadata: ["session": "\(session.id)", "role": "\(account.info.role.rawValue)"])
        return Outcome(account: account.info, session: session, accessToken: tokens.access, refreshToken: tokens.refresh,
                       deviceProof: DeviceProof.make(staffID: account.info.id, passwordHash: passwordHash))
    }

    /// A known account's password, hashed in its lane.
    private func verify(_ password: String, against stored: String) async throws -> Bool {
        try await hub.hashing.run(in: .knownAccount) { PasswordHasher.verify(password, against: stored) }
    }

    /// Counts the wrong password, logs it, and takes as long as a hash whatever the e-mail: an
    /// unknown one costs the decoy hash in its own lane while the hub's rate of them allows,
    /// else the same wait without hashing. Nothing tells a known account from an unknown one.
    private func refuse(_ attempt: SignInLockout.Attempt, account: StaffInfo?, password: String) async throws {
        if account == nil {
            let hashed: Bool
            if hub.unknownSignIns.take("unknown") == nil {
                hashed = (try? await hub.hashing.run(in: .unknownAccount) { PasswordHasher.verify(password, against: PasswordHasher.decoy) }) != nil
            } else {
                hashed = false
            }
            if !hashed { try await Task.sleep(for: hub.hashing.typicalSignIn) }
        }
        hub.lockout.failed(attempt)
        if let account, attempt.recognisedAs == nil { hub.lockout.guessed.wrongPassword(account) }
        hub.metrics.signInRefused()
        // Neither the e-mail as typed (it may be a password typed in the wrong field) nor whether
        // it has an account: a keyed digest, the same for one e-mail in this process's log.
        hub.logger.notice("sign-in refused", metadata: ["attempt": "\(Self.digest(attempt.email))", "client": "\(Sanitized.text(attempt.client))"])
    }

    static func heldBack(_ wait: Int) -> HubProblem {
        var problem = HubProblem(.tooManyRequests, "Too many sign-in attempts", detail: "Retry after \(wait) s.")
        problem.retryAfterSeconds = wait
        return problem
    }

    /// The key of ``digest(_:)``: random per process, so the log cannot be searched for a guessed e-mail.
    private static let digestKey = SymmetricKey(size: .bits256)

    /// 12 hex digits standing for an e-mail in the log.
    static func digest(_ email: String) -> String {
        String(HMAC<SHA256>.authenticationCode(for: Array(email.lowercased().utf8), using: digestKey).hexString.prefix(12))
    }
}
