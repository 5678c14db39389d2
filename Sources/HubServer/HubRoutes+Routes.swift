import CheckInCore
import Foundation
import HTTPTypes
import HubAPI
import Hummingbird
import Logging
import NIOCore

extension HubRoutes {
    func add(to router: Router<BasicRequestContext>) {
        router.get(RouterPath(HubPaths.health), use: wrap("health") { _, _ in
            let schema = try await store.schemaVersion()
            return try json(HealthResponse(status: "ok", schema: schema, database: store.kind))
        })
        router.post(RouterPath(HubPaths.signIn), use: wrap("sign-in") { request, _ in
            let body = try await body(SignInRequest.self, request)
            if let wait = limiter.take("sign-in:" + body.email.lowercased()) {
                var problem = HubProblem(.tooManyRequests, "Too many sign-in attempts", detail: "Retry after \(wait) s.")
                problem.retryAfterSeconds = wait
                throw problem
            }
            guard let staff = try await store.staff(email: body.email), PasswordHasher.verify(body.password, against: staff.passwordHash) else {
                throw HubProblem(.unauthorized, "Wrong e-mail or password")
            }
            let now = Timestamp.now()
            let tokens = newTokens(now: now)
            let session = NewSession(id: Tokens.identifier("ses"), staffID: staff.info.id, tokens: tokens.hashes, createdAt: now)
            try await store.createSession(session)
            logger.info("signed in", metadata: ["session": "\(session.id)", "role": "\(staff.info.role.rawValue)"])
            return try json(TokenPair(
                accessToken: tokens.access, accessExpiresAt: tokens.hashes.accessExpires, refreshToken: tokens.refresh,
                refreshExpiresAt: tokens.hashes.refreshExpires, sessionID: session.id, staff: staff.info))
        })
        router.post(RouterPath(HubPaths.refresh), use: wrap("refresh") { request, _ in
            let body = try await body(RefreshRequest.self, request)
            let now = Timestamp.now()
            let tokens = newTokens(now: now)
            guard let session = try await store.rotate(refreshHash: Tokens.hash(body.refreshToken), to: tokens.hashes, now: now) else {
                throw HubProblem(.unauthorized, "Refresh token not valid", detail: "It was used, revoked or expired; sign in again.")
            }
            return try json(TokenPair(
                accessToken: tokens.access, accessExpiresAt: tokens.hashes.accessExpires, refreshToken: tokens.refresh,
                refreshExpiresAt: tokens.hashes.refreshExpires, sessionID: session.sessionID, staff: session.staff, deviceID: session.deviceID))
        })
        router.post(RouterPath(HubPaths.signOut), use: wrap("sign-out") { request, _ in
            let session = try await authenticate(request)
            _ = try await store.revokeSession(id: session.sessionID, now: .now())
            return Response(status: .noContent)
        })
        router.post(RouterPath(HubPaths.stations), use: wrap("stations") { request, _ in
            let session = try await authenticate(request)
            let body = try await body(StationRegistrationRequest.self, request)
            let name = Sanitized.text(body.name).trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty, name.count <= 100 else { throw HubProblem.invalid("name", "Give the station a name of 1 to 100 characters.") }
            if let id = body.deviceID, id.isEmpty || id.contains("/") || id.count > 100 {
                throw HubProblem.invalid("deviceID", "A device id is 1 to 100 characters without '/'.")
            }
            let deviceID = body.deviceID ?? Tokens.identifier("dev")
            try await store.registerStation(sessionID: session.sessionID, deviceID: deviceID, name: name)
            return try json(StationRegistration(deviceID: deviceID, name: name, registeredBy: session.staff, registeredAt: .now()))
        })
        router.get(RouterPath(HubPaths.events), use: wrap("events") { request, _ in
            _ = try await authenticate(request)
            let rangeText = request.uri.queryParameters.get("range") ?? "all"
            guard let range = EventRange(rawValue: rangeText) else { throw HubProblem.invalid("range", "Use today, week or all.") }
            let now = Timestamp.now().milliseconds
            let horizon: Int64? = switch range {
            case .today: 86_400_000
            case .week: 7 * 86_400_000
            case .all: nil
            }
            let events = try await store.events().filter { event in
                guard let horizon else { return true }
                let start = event.startsAt?.milliseconds ?? Int64.min, end = event.endsAt?.milliseconds ?? Int64.max
                return start <= now + horizon && end >= now - 86_400_000
            }
            return try json(EventList(events: events))
        })
        router.get("/v1/events/:event/roster", use: wrap("roster") { request, context in
            _ = try await authenticate(request)
            let event = try await event(context)
            let cursorText = request.uri.queryParameters.get("cursor") ?? "0"
            guard let cursor = Int64(cursorText), cursor >= 0 else { throw HubProblem.invalid("cursor", "The cursor is a number from an earlier page.") }
            let limitText = request.uri.queryParameters.get("limit") ?? "1000"
            guard let limit = Int(limitText), limit > 0 else { throw HubProblem.invalid("limit", "A positive number of items.") }
            return try json(try await store.rosterPage(event: event.id, after: cursor, limit: min(limit, HubPaths.maximumPageSize)))
        })
        router.post("/v1/events/:event/check-ins", use: wrap("check-ins") { request, context in
            _ = try await authenticate(request)
            let event = try await event(context)
            let batch = try await body(CheckInBatch.self, request)
            try checkBatchSize(batch.items.count)
            for (index, item) in batch.items.enumerated() {
                if item.key.deviceID.isEmpty || item.key.deviceID.contains("/") { throw HubProblem.invalid("items.\(index).key.deviceID", "A device id without '/'.") }
                if item.key.guestID.isEmpty || item.key.guestID.contains("/") { throw HubProblem.invalid("items.\(index).key.guestID", "A guest id without '/'.") }
            }
            let results = try await store.ingest(event: event, items: batch.items, now: .now())
            for status in UploadStatus.allCases {
                let count = results.count { $0.status == status }
                if count > 0 { metrics.checkIns(status.rawValue, count: count) }
            }
            return try json(CheckInBatchResult(results: results))
        })
        router.post("/v1/events/:event/walk-ins", use: wrap("walk-ins") { request, context in
            _ = try await authenticate(request)
            let event = try await event(context)
            let batch = try await body(WalkInBatch.self, request)
            try checkBatchSize(batch.items.count)
            for (index, item) in batch.items.enumerated() where item.guestID.isEmpty || item.guestID.contains("/") {
                throw HubProblem.invalid("items.\(index).guestID", "A guest id without '/'.")
            }
            return try json(WalkInBatchResult(results: try await store.ingestWalkIns(event: event, items: batch.items, now: .now())))
        })
        router.post("/v1/events/:event/undos", use: wrap("undos") { request, context in
            let session = try await authenticate(request)
            let event = try await event(context)
            let batch = try await body(UndoBatch.self, request)
            try checkBatchSize(batch.items.count)
            let caller = UndoCaller(role: session.staff.role, deviceID: session.deviceID)
            return try json(UndoBatchResult(results: try await store.undo(event: event, items: batch.items, caller: caller, now: .now())))
        })
        router.get("/v1/events/:event/stats", use: wrap("stats") { request, context in
            _ = try await authenticate(request)
            return try json(try await store.stats(event: try await event(context).id))
        })
        router.get("/v1/events/:event/conflicts", use: wrap("conflicts") { request, context in
            _ = try await authenticate(request, role: .support)
            return try json(ConflictList(conflicts: try await store.conflicts(event: try await event(context).id)))
        })
        router.get(RouterPath(HubPaths.metrics), use: wrap("metrics") { request, _ in
            _ = try await authenticate(request, role: .support)
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: metrics.render())))
        })
    }
}
