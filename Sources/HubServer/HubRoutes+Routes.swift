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
            let body = try await body(SignInRequest.self, request, limit: SignInBounds.bodyBytes, advice: "an e-mail and a password fit in far less")
            try SignInBounds.check(body)
            if let wait = signInThrottle.secondsToWait(body.email) ?? limiter.take("sign-in:" + SignInThrottle.key(body.email)) {
                var problem = HubProblem(.tooManyRequests, "Too many sign-in attempts", detail: "Retry after \(wait) s.")
                problem.retryAfterSeconds = wait
                throw problem
            }
            let staff = try await store.staff(email: body.email)
            // An unknown e-mail costs the same hashing as a known one: the time does not tell.
            guard PasswordHasher.verify(body.password, against: staff?.passwordHash ?? PasswordHasher.decoy), let staff else {
                signInThrottle.failed(body.email)
                logger.notice("sign-in refused", metadata: ["email": "\(Sanitized.text(body.email))", "known": "\(staff != nil)"])
                throw HubProblem(.unauthorized, "Wrong e-mail or password")
            }
            signInThrottle.succeeded(body.email)
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
            let body = try await body(RefreshRequest.self, request, limit: SignInBounds.bodyBytes, advice: "a refresh token fits in far less")
            let now = Timestamp.now()
            let tokens = newTokens(now: now)
            guard let session = try await store.rotate(
                refreshHash: Tokens.hash(body.refreshToken), to: tokens.hashes, now: now,
                graceMilliseconds: Self.milliseconds(seconds: configuration.refreshGraceSeconds))
            else {
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
            guard !name.isEmpty, !UploadValidation.exceeds(name, UploadLimits.stationCharacters) else {
                throw HubProblem.invalid("name", "Give the station a name of 1 to \(UploadLimits.stationCharacters) characters.")
            }
            if let id = body.deviceID { try UploadValidation.identifier(id, "deviceID", UploadLimits.deviceIDCharacters) }
            if let secret = body.deviceSecret, !UploadLimits.deviceSecretCharacters.contains(secret.utf8.count) {
                throw HubProblem.invalid("deviceSecret", "A device secret is \(UploadLimits.deviceSecretCharacters.lowerBound) to "
                    + "\(UploadLimits.deviceSecretCharacters.upperBound) bytes of random text; leave it out and the hub issues one.")
            }
            // Without a secret of its own the station gets one issued, returned this once.
            let issuedSecret = body.deviceSecret == nil ? Tokens.token() : nil
            let secret = body.deviceSecret ?? issuedSecret ?? ""
            let claim = StationClaim(
                deviceID: body.deviceID ?? Tokens.identifier("dev"), secretHash: Tokens.hash(secret), name: name,
                sessionID: session.sessionID, staffID: session.staff.id, now: .now())
            guard try await store.registerStation(claim) == .registered else {
                throw HubProblem(
                    .conflict, "Device id taken",
                    detail: "This device id belongs to another station. Register with the device secret it was registered with, "
                        + "or without a device id to be issued a new one.",
                    field: "deviceID", type: ProblemDocument.deviceTakenProblemType)
            }
            logger.info("station registered", metadata: ["session": "\(session.sessionID)", "device": "\(claim.deviceID)"])
            return try json(StationRegistration(
                deviceID: claim.deviceID, name: name, registeredBy: session.staff, registeredAt: claim.now, deviceSecret: issuedSecret))
        })
        router.get(RouterPath(HubPaths.events), use: wrap("events") { request, _ in
            _ = try await authenticate(request)
            let rangeText = request.uri.queryParameters.get("range") ?? "all"
            guard let range = EventRange(rawValue: rangeText) else { throw HubProblem.invalid("range", "Use today, week or all.") }
            let now = Timestamp.now()
            let horizon: Int64? = switch range {
            case .today: 86_400_000
            case .week: 7 * 86_400_000
            case .all: nil
            }
            // Saturating arithmetic: event times are whatever an organizer typed.
            let events = try await store.events().filter { event in
                guard let horizon else { return true }
                let start = event.startsAt ?? Timestamp(milliseconds: .min), end = event.endsAt ?? Timestamp(milliseconds: .max)
                return start <= now.adding(milliseconds: horizon) && end >= now.adding(milliseconds: -86_400_000)
            }
            return try json(EventList(events: events))
        })
        router.get("/v1/events/:event/roster", use: wrap("roster", timed: { ($0.uri.queryParameters.get("wait") ?? "0") == "0" }) { request, context in
            _ = try await authenticate(request)
            let event = try await event(context)
            let cursorText = request.uri.queryParameters.get("cursor") ?? "0"
            guard let cursor = Int64(cursorText), cursor >= 0 else { throw HubProblem.invalid("cursor", "The cursor is a number from an earlier page.") }
            let limitText = request.uri.queryParameters.get("limit") ?? "1000"
            guard let limit = Int(limitText), limit > 0 else { throw HubProblem.invalid("limit", "A positive number of items.") }
            let wait = try RosterLongPoll.wait(request.uri.queryParameters.get("wait"))
            switch try await RosterLongPoll(store: store, feed: feed).answer(
                event: event.id, after: cursor, limit: min(limit, HubPaths.maximumPageSize), wait: wait) {
            case .page(let page):
                return try json(page)
            case .notHeld(let page):
                var response = try json(page)
                response.headers[.retryAfter] = "1"
                return response
            }
        })
        router.post("/v1/events/:event/check-ins", use: wrap("check-ins") { request, context in
            let session = try await authenticate(request)
            let event = try await event(context)
            let batch = try await body(CheckInBatch.self, request)
            try checkBatchSize(batch.items.count)
            try UploadValidation.checkIns(batch.items)
            try DeviceAuthorization.require(session, devices: batch.items.enumerated().map { ("items.\($0.offset).key.deviceID", $0.element.key.deviceID) })
            let now = Timestamp.now()
            try UploadValidation.plausibleTimes(batch.items.enumerated().map { ("items.\($0.offset).key.scannedAt", $0.element.key.scannedAt) }, now: now)
            let results = try await store.ingest(event: event, items: batch.items, uploader: Uploader(session), now: now)
            for status in UploadStatus.allCases {
                let count = results.count { $0.status == status }
                if count > 0 { metrics.checkIns(status.rawValue, count: count) }
            }
            return try json(CheckInBatchResult(results: results))
        })
        router.post("/v1/events/:event/walk-ins", use: wrap("walk-ins") { request, context in
            let session = try await authenticate(request)
            let event = try await event(context)
            let batch = try await body(WalkInBatch.self, request)
            try checkBatchSize(batch.items.count)
            try UploadValidation.walkIns(batch.items)
            try DeviceAuthorization.require(session, devices: batch.items.enumerated().map { ("items.\($0.offset).deviceID", $0.element.deviceID) })
            let now = Timestamp.now()
            try UploadValidation.plausibleTimes(batch.items.enumerated().map { ("items.\($0.offset).createdAt", $0.element.createdAt) }, now: now)
            return try json(WalkInBatchResult(results: try await store.ingestWalkIns(event: event, items: batch.items, uploader: Uploader(session), now: now)))
        })
        router.post("/v1/events/:event/undos", use: wrap("undos") { request, context in
            let session = try await authenticate(request)
            let event = try await event(context)
            let batch = try await body(UndoBatch.self, request)
            try checkBatchSize(batch.items.count)
            try UploadValidation.undos(batch.items)
            // An undo names another check-in's key; who may undo it is UndoPolicy's, per item,
            // with the device whose registration this session holds.
            try DeviceAuthorization.require(session, devices: [])
            let now = Timestamp.now()
            try UploadValidation.plausibleTimes(batch.items.enumerated().map { ("items.\($0.offset).undoneAt", $0.element.undoneAt) }, now: now)
            return try json(UndoBatchResult(results: try await store.undo(event: event, items: batch.items, caller: Uploader(session), now: now)))
        })
        router.get("/v1/events/:event/stats", use: wrap("stats") { request, context in
            _ = try await authenticate(request)
            return try json(try await store.stats(event: try await event(context).id))
        })
        router.get("/v1/events/:event/conflicts", use: wrap("conflicts") { request, context in
            _ = try await authenticate(request, role: .support)
            let event = try await event(context)
            return try json(ConflictList(
                conflicts: try await store.conflicts(event: event.id), reviews: try await store.walkInReviews(event: event.id),
                flaggedExits: try await store.flaggedExits(event: event.id)))
        })
        router.get(RouterPath(HubPaths.metrics), use: wrap("metrics") { request, _ in
            _ = try await authenticate(request, role: .support)
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: metrics.render(feed: feed))))
        })
    }
}
