import CheckInCore
import Foundation
import HubAPI
import KioskTestSupport
import Synchronization

/// An in-memory hub speaking the `/v1` wire format (HubAPI types) over real HTTP on loopback,
/// with injectable faults. Used for the fault answers; the end-to-end tests use the real
/// `checkin-hub` process.
final class FakeHub: Sendable {
    struct State {
        var guests: [(seq: Int64, guest: RosterGuest)] = []
        var checkInLog: [(seq: Int64, item: RosterCheckIn)] = []
        var seq: Int64 = 0
        var accessTokens: Set<String> = []
        var refreshTokens: Set<String> = []
        var refuseRefresh = false
        /// Every check-in upload item received, in arrival order (replays included).
        var received: [IdempotencyKey] = []
        /// The first answer for each key.
        var answers: [IdempotencyKey: HubAPI.CheckInResult] = [:]
        /// Admissions in the order they were recorded.
        var admitted: [CheckInUpload] = []
        var walkIns: [String] = []
        var undone: [IdempotencyKey] = []
        /// Faults to answer instead of the real thing: the first whose path fragment matches is used once.
        var faults: [(path: String, response: ScriptedHTTPServer.Response)] = []
        var requests: [String] = []
        var tokenCounter = 0
        /// Delay of every roster page and check-in answer (seconds), to kill a station mid-way.
        var rosterDelay: TimeInterval = 0
        var checkInDelay: TimeInterval = 0
        /// Whether it takes station health reports (a hub before them answers 404), and those taken.
        var takesStationReports = false
        var stationReports: [(deviceID: String, report: StationReport)] = []
    }

    let state = Mutex(State())
    let eventID = "ev_fake"
    private let server = Mutex<ScriptedHTTPServer?>(nil)
    let port: UInt16

    init(guests: Int = 0) throws {
        let holder = Mutex<FakeHub?>(nil)
        let server = try ScriptedHTTPServer { request in holder.withLock { $0 }!.handle(request) }
        port = server.port
        seedGuests(guests)
        self.server.withLock { $0 = server }
        holder.withLock { $0 = self }
    }

    var url: String { "http://127.0.0.1:\(port)" }

    /// Stops answering (connections refused) until ``start()``; the hub's state is kept.
    func stop() { server.withLock { $0?.stop(); $0 = nil } }

    /// Answers again on the same port.
    func start() throws {
        try server.withLock { current in
            guard current == nil else { return }
            current = try ScriptedHTTPServer(port: port) { [self] request in self.handle(request) }
        }
    }

    func seedGuests(_ count: Int, from start: Int = 0) {
        state.withLock { state in
            for index in start..<(start + count) {
                state.seq += 1
                state.guests.append((state.seq, RosterGuest(id: "g\(index)", code: String(format: "CODE%06d", index), name: "Guest \(index)",
                                                            email: "guest\(index)@example.org", accessTypeID: "general")))
            }
        }
    }

    func inject(_ path: String, _ response: ScriptedHTTPServer.Response, times: Int = 1) {
        state.withLock { state in for _ in 0..<times { state.faults.append((path, response)) } }
    }

    // MARK: Handling

    func handle(_ request: ScriptedHTTPServer.Request) -> ScriptedHTTPServer.Response {
        let fault: ScriptedHTTPServer.Response? = state.withLock { state in
            state.requests.append("\(request.method) \(request.path)")
            guard let index = state.faults.firstIndex(where: { request.path.contains($0.path) }) else { return nil }
            return state.faults.remove(at: index).response
        }
        if let fault { return fault }
        switch (request.method, request.path) {
        case ("POST", HubPaths.signIn):
            return json(issueTokens())
        case ("POST", HubPaths.refresh):
            guard let body = try? JSONDecoder().decode(RefreshRequest.self, from: request.body) else { return problem(400) }
            let allowed = state.withLock { state -> Bool in
                guard !state.refuseRefresh, state.refreshTokens.remove(body.refreshToken) != nil else { return false }
                return true
            }
            return allowed ? json(issueTokens()) : problem(401)
        case ("POST", HubPaths.signOut):
            return ScriptedHTTPServer.Response(status: 204)
        default:
            break
        }
        let token = request.headers["authorization"].map { String($0.dropFirst("Bearer ".count)) } ?? ""
        guard state.withLock({ $0.accessTokens.contains(token) }) else { return problem(401) }
        switch (request.method, request.path) {
        case ("POST", HubPaths.stations):
            let body = try? JSONDecoder().decode(StationRegistrationRequest.self, from: request.body)
            return json(StationRegistration(deviceID: body?.deviceID ?? "dev", name: body?.name ?? "", registeredBy: staff, registeredAt: .now()))
        case ("GET", HubPaths.events):
            return json(EventList(events: [EventSummary(id: eventID, name: "Fake Conf")]))
        case ("GET", HubPaths.stats(event: eventID)):
            let count = state.withLock { $0.guests.count }
            return json(EventStats(expected: count, checkedIn: 0, inside: 0, duplicates: 0, conflicts: 0))
        case ("GET", HubPaths.roster(event: eventID)):
            var response = json(rosterPage(after: Int64(request.query["cursor"] ?? "0") ?? 0, limit: Int(request.query["limit"] ?? "1000") ?? 1000))
            response.delay = state.withLock { $0.rosterDelay }
            return response
        case ("POST", HubPaths.checkIns(event: eventID)):
            guard let batch = try? JSONDecoder().decode(CheckInBatch.self, from: request.body) else { return problem(422) }
            var response = json(CheckInBatchResult(results: batch.items.map(decide)))
            response.delay = state.withLock { $0.checkInDelay }
            return response
        case ("POST", HubPaths.walkIns(event: eventID)):
            guard let batch = try? JSONDecoder().decode(WalkInBatch.self, from: request.body) else { return problem(422) }
            state.withLock { state in for item in batch.items where !state.walkIns.contains(item.guestID) { state.walkIns.append(item.guestID) } }
            return json(WalkInBatchResult(results: batch.items.map { WalkInResult(guestID: $0.guestID, status: .accepted) }))
        case ("POST", HubPaths.undos(event: eventID)):
            guard let batch = try? JSONDecoder().decode(UndoBatch.self, from: request.body) else { return problem(422) }
            state.withLock { state in for item in batch.items where !state.undone.contains(item.key) { state.undone.append(item.key) } }
            return json(UndoBatchResult(results: batch.items.map { UndoResult(key: $0.key, status: .undone) }))
        case ("PUT", let path) where path.hasPrefix(HubPaths.stationReports(event: eventID) + "/") && state.withLock({ $0.takesStationReports }):
            guard let report = try? JSONDecoder().decode(StationReport.self, from: request.body) else { return problem(422) }
            let device = String(path.dropFirst(HubPaths.stationReports(event: eventID).count + 1))
            state.withLock { $0.stationReports.append((device, report)) }
            return ScriptedHTTPServer.Response(status: 204)
        default:
            return problem(404)
        }
    }

    let staff = StaffInfo(id: "s1", email: "alex@example.org", name: "Alex", role: .staff)

    func issueTokens() -> TokenPair {
        state.withLock { state in
            state.tokenCounter += 1
            let access = "access-\(state.tokenCounter)", refresh = "refresh-\(state.tokenCounter)"
            state.accessTokens.insert(access)
            state.refreshTokens.insert(refresh)
            let now = Timestamp.now()
            return TokenPair(accessToken: access, accessExpiresAt: now.adding(milliseconds: 3_600_000), refreshToken: refresh,
                             refreshExpiresAt: now.adding(milliseconds: 86_400_000), sessionID: "sess", staff: staff)
        }
    }

    /// Makes every access token invalid (as if expired), so the next request gets 401.
    func expireAccessTokens() { state.withLock { $0.accessTokens.removeAll() } }

    func rosterPage(after cursor: Int64, limit: Int) -> RosterPage {
        state.withLock { state in
            let guests = state.guests.filter { $0.seq > cursor }.prefix(limit)
            let last = guests.last?.seq ?? max(cursor, state.seq)
            let checkIns = state.checkInLog.filter { $0.seq > cursor && $0.seq <= last }.map(\.item)
            return RosterPage(cursor: last, hasMore: last < state.seq,
                              accessTypes: cursor == 0 ? [RosterAccessType(id: "general", name: "General")] : [],
                              guests: guests.map(\.guest), checkIns: checkIns)
        }
    }

    func decide(_ item: CheckInUpload) -> HubAPI.CheckInResult {
        state.withLock { state in
            state.received.append(item.key)
            if let answer = state.answers[item.key] { return answer }
            let answer: HubAPI.CheckInResult
            if let first = state.admitted.first(where: { $0.key.guestID == item.key.guestID }) {
                let previous = PreviousCheckIn(by: first.operatorName, station: first.station, deviceID: first.key.deviceID, at: first.key.scannedAt)
                if abs(first.key.scannedAt.milliseconds - item.key.scannedAt.milliseconds) <= 30_000 {
                    answer = .init(key: item.key, status: .duplicate, decision: .duplicate, previous: previous)
                } else {
                    answer = .init(key: item.key, status: .rejected, decision: .alreadyCheckedIn, reason: "already checked in", previous: previous)
                }
            } else {
                answer = .init(key: item.key, status: .accepted, decision: .admitted)
                state.admitted.append(item)
                state.seq += 1
                state.checkInLog.append((state.seq, RosterCheckIn(key: item.key, station: item.station, operatorName: item.operatorName,
                                                                  source: item.source, direction: item.direction)))
            }
            state.answers[item.key] = answer
            return answer
        }
    }

    func json<T: Encodable>(_ value: T) -> ScriptedHTTPServer.Response {
        ScriptedHTTPServer.Response(status: 200, headers: ["Content-Type": "application/json"], body: (try? HubJSON.encoder().encode(value)) ?? Data())
    }

    func problem(_ status: Int) -> ScriptedHTTPServer.Response {
        let document = ProblemDocument(title: "HTTP \(status)", status: status, detail: "fake hub says \(status)")
        return ScriptedHTTPServer.Response(status: status, headers: ["Content-Type": "application/problem+json"],
                                           body: (try? HubJSON.encoder().encode(document)) ?? Data())
    }
}
