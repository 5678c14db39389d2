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
            let signedIn = try await StaffSignIn(hub: hub, sessions: sessions, staff: staff).signIn(email: body.email, password: body.password, client: client)
            let session = signedIn.session, tokens = (access: signedIn.accessToken, refresh: signedIn.refreshToken, hashes: session.tokens)
            return try hub.json(TokenPair(
                accessToken: tokens.access, accessExpiresAt: tokens.hashes.accessExpires, refreshToken: tokens.refresh,
                refreshExpiresAt: tokens.hashes.refreshExpires, sessionID: session.id, staff: signedIn.account))
        })
        group.post(RouterPath(HubPaths.refresh), use: hub.wrap("refresh") { request, context in
            let body = try await hub.body(RefreshRequest.self, request, limit: SignInBounds.bodyBytes, advice: "a refresh token fits in far less")
            let now = Timestamp.now()
            let tokens = hub.newTokens(now: now)
            guard let session = try await sessions.rotate(
                refreshHash: Tokens.hash(body.refreshToken), to: tokens.hashes, now: now,
                graceMilliseconds: HubRoutes.milliseconds(seconds: hub.configuration.refreshGraceSeconds))
            else {
                throw HubProblem(.unauthorized, "Refresh token not valid", detail: "It was used, revoked or expired; sign in again.")
            }
            // A station refreshing from here is one that signed in: guesses at its account's
            // password from elsewhere do not hold it back when it must sign in again (SignInLockout).
            let client = ClientAddress.resolve(
                peer: context.peerAddress, forwardedFor: request.headers[.xForwardedFor], trustedProxies: hub.configuration.trustedProxies)
            hub.lockout.recognised.remember(staffID: session.staff.id, client: ClientAddress.key(client))
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
