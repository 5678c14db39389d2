import CheckInCore
import HubAPI
import Hummingbird
import Logging

/// Sign-in, refresh (open routes) and sign-out.
struct AuthController {
    let hub: HubRoutes
    let sessions: any SessionRepository
    let staff: any StaffRepository

    func addOpen(to group: RouterGroup<HubRequestContext>) {
        group.post(RouterPath(HubPaths.signIn), use: hub.wrap("sign-in") { request, context in
            let body = try await hub.body(SignInRequest.self, request, limit: SignInBounds.bodyBytes, advice: "an e-mail and a password fit in far less")
            try SignInBounds.check(body)
            let client = ClientAddress.resolve(
                peer: context.peerAddress, forwardedFor: request.headers[.xForwardedFor], trustedProxies: hub.configuration.trustedProxies)
            if let wait = hub.signInThrottle.secondsToWait(body.email) ?? hub.clientThrottle.secondsToWait(client)
                ?? hub.limiter.take("sign-in:" + SignInThrottle.key(body.email)) {
                var problem = HubProblem(.tooManyRequests, "Too many sign-in attempts", detail: "Retry after \(wait) s.")
                problem.retryAfterSeconds = wait
                throw problem
            }
            let account = try await staff.staff(email: body.email)
            // An unknown e-mail costs the same hashing as a known one: the time does not tell.
            let password = body.password, stored = account?.passwordHash ?? PasswordHasher.decoy
            let valid = try await hub.hashing.run { PasswordHasher.verify(password, against: stored) }
            guard valid, let account else {
                hub.signInThrottle.failed(body.email)
                hub.clientThrottle.failed(client)
                hub.metrics.signInRefused()
                hub.logger.notice("sign-in refused", metadata: [
                    "email": "\(Sanitized.text(body.email))", "known": "\(account != nil)", "client": "\(Sanitized.text(client))",
                ])
                throw HubProblem(.unauthorized, "Wrong e-mail or password")
            }
            hub.signInThrottle.succeeded(body.email)
            if PasswordHasher.needsRehash(account.passwordHash), let fresh = try await hub.hashing.run({ try? PasswordHasher.hash(password) }) {
                // Made with fewer rounds (210,000 before): replaced now that the password is known.
                try await staff.upgradePasswordHash(staffID: account.info.id, fresh)
                hub.logger.info("password hash upgraded", metadata: ["staff": "\(account.info.id)", "rounds": "\(PasswordHasher.rounds)"])
            }
            let now = Timestamp.now()
            let ends = now.adding(milliseconds: HubRoutes.milliseconds(seconds: hub.configuration.sessionLifetimeSeconds))
            let tokens = hub.newTokens(now: now, sessionEnds: ends)
            let session = NewSession(id: Tokens.identifier("ses"), staffID: account.info.id, tokens: tokens.hashes, createdAt: now, endsAt: ends)
            try await sessions.createSession(session)
            hub.logger.info("signed in", metadata: ["session": "\(session.id)", "role": "\(account.info.role.rawValue)"])
            return try hub.json(TokenPair(
                accessToken: tokens.access, accessExpiresAt: tokens.hashes.accessExpires, refreshToken: tokens.refresh,
                refreshExpiresAt: tokens.hashes.refreshExpires, sessionID: session.id, staff: account.info))
        })
        group.post(RouterPath(HubPaths.refresh), use: hub.wrap("refresh") { request, _ in
            let body = try await hub.body(RefreshRequest.self, request, limit: SignInBounds.bodyBytes, advice: "a refresh token fits in far less")
            let now = Timestamp.now()
            let tokens = hub.newTokens(now: now)
            guard let session = try await sessions.rotate(
                refreshHash: Tokens.hash(body.refreshToken), to: tokens.hashes, now: now,
                graceMilliseconds: HubRoutes.milliseconds(seconds: hub.configuration.refreshGraceSeconds))
            else {
                throw HubProblem(.unauthorized, "Refresh token not valid", detail: "It was used, revoked or expired; sign in again.")
            }
            // The pair never outlives the session: the station sees when it must sign in again.
            let end = session.endsAt ?? Timestamp(milliseconds: .max)
            return try hub.json(TokenPair(
                accessToken: tokens.access, accessExpiresAt: min(tokens.hashes.accessExpires, end), refreshToken: tokens.refresh,
                refreshExpiresAt: min(tokens.hashes.refreshExpires, end), sessionID: session.sessionID, staff: session.staff, deviceID: session.deviceID))
        })
    }

    func addSignedIn(to group: RouterGroup<HubRequestContext>) {
        group.post(RouterPath(HubPaths.signOut), use: hub.wrap("sign-out") { _, context in
            _ = try await sessions.revokeSession(id: try context.requireCaller().sessionID, now: .now())
            return Response(status: .noContent)
        })
    }
}
