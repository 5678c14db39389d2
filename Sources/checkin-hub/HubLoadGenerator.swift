import CheckInCore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HubAPI

/// The client side of `checkin-hub bench`: simulated stations talking to a hub over HTTP on
/// loopback through URLSession, timing every request.
struct HubLoadGenerator: Sendable {
    let base: URL
    let session: URLSession
    let token: String

    struct BenchError: Error, CustomStringConvertible {
        var description: String
    }

    /// Signs in as `email` and returns a generator sending that session's access token.
    static func signIn(port: Int, email: String, password: String, connections: Int) async throws -> HubLoadGenerator {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = max(connections, 1)
        configuration.timeoutIntervalForRequest = 300
        let anonymous = HubLoadGenerator(base: URL(string: "http://127.0.0.1:\(port)")!, session: URLSession(configuration: configuration), token: "")
        let pair = try await anonymous.send(HubPaths.signIn, body: SignInRequest(email: email, password: password), as: TokenPair.self).value
        return HubLoadGenerator(base: anonymous.base, session: anonymous.session, token: pair.accessToken)
    }

    /// Sends one request; returns the decoded answer and the round-trip time in seconds.
    func send<Body: Encodable, Answer: Decodable>(_ path: String, body: Body?, as type: Answer.Type) async throws -> (value: Answer, seconds: Double) {
        let answer = try await send(path, body: try body.map { try HubJSON.encoder().encode($0) })
        return (try HubJSON.decoder().decode(Answer.self, from: answer.data), answer.seconds)
    }

    /// Sends one request with an encoded body (POST) or none (GET); returns the answer's bytes.
    func send(_ path: String, body: Data?) async throws -> (data: Data, seconds: Double) {
        var request = URLRequest(url: URL(string: path, relativeTo: base)!)
        if let body {
            request.httpMethod = "POST"
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        if !token.isEmpty { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        let start = ContinuousClock.now
        let (data, response) = try await session.data(for: request)
        let seconds = (ContinuousClock.now - start).seconds
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard status == 200 else {
            throw BenchError(description: "\(path) answered \(status): \(String(decoding: data.prefix(500), as: UTF8.self))")
        }
        return (data, seconds)
    }

    func get<Answer: Decodable>(_ path: String, as type: Answer.Type) async throws -> (value: Answer, seconds: Double) {
        try await send(path, body: Optional<SignOutRequest>.none, as: type)
    }

    /// The HTTP floor: `GET /v1/health` (one trivial database query), `concurrency` at a time.
    func healthBaseline(requests: Int, concurrency: Int) async throws -> RateFigures {
        let start = ContinuousClock.now
        let latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
            for worker in 0..<concurrency {
                let share = requests / concurrency + (worker < requests % concurrency ? 1 : 0)
                group.addTask {
                    var own: [Double] = []
                    for _ in 0..<share { own.append(try await get(HubPaths.health, as: HealthResponse.self).seconds) }
                    return own
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        return RateFigures(items: requests, requests: requests, seconds: (ContinuousClock.now - start).seconds, latencies: latencies)
    }

    /// A full roster pull from cursor 0, page after page, as a new station does.
    func pullRoster(event: String, pageSize: Int) async throws -> RosterFigures {
        var cursor: Int64 = 0, pages = 0, ids: [String] = []
        let start = ContinuousClock.now
        while true {
            let page = try await get(HubPaths.roster(event: event) + "?cursor=\(cursor)&limit=\(pageSize)", as: RosterPage.self).value
            pages += 1
            ids += page.guests.map(\.id)
            cursor = page.cursor
            if !page.hasMore { break }
        }
        return RosterFigures(pages: pages, guests: ids.count, seconds: (ContinuousClock.now - start).seconds, guestIDs: ids)
    }

    /// `stations` stations at once, each uploading its share of `guestIDs` in batches of `batch`.
    /// Request bodies are encoded before the clock starts and answers decoded after it stops, as
    /// a load generator replays prepared requests: the figure is the hub's, not the encoder's.
    func ingest(event: String, guestIDs: [String], stations: Int, batch: Int) async throws -> IngestFigures {
        let now = Timestamp.now().milliseconds
        let path = HubPaths.checkIns(event: event)
        let bodies: [[Data]] = try (0..<stations).map { station in
            let mine = stride(from: station, to: guestIDs.count, by: stations).map { guestIDs[$0] }
            let items = mine.enumerated().map { index, guest in
                upload(guest: guest, device: "bench-\(station)", at: now - Int64(mine.count - index) * 10, station: station)
            }
            return try stride(from: 0, to: items.count, by: batch).map { chunk in
                try HubJSON.encoder().encode(CheckInBatch(items: Array(items[chunk..<min(chunk + batch, items.count)])))
            }
        }
        let start = ContinuousClock.now
        let answers = try await withThrowingTaskGroup(of: [(data: Data, seconds: Double)].self) { group in
            for own in bodies {
                group.addTask {
                    var answers: [(data: Data, seconds: Double)] = []
                    for body in own { answers.append(try await send(path, body: body)) }
                    return answers
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        let seconds = (ContinuousClock.now - start).seconds
        var counts: [UploadStatus: Int] = [:]
        for answer in answers {
            for result in try HubJSON.decoder().decode(CheckInBatchResult.self, from: answer.data).results { counts[result.status, default: 0] += 1 }
        }
        let rate = RateFigures(items: guestIDs.count, requests: answers.count, seconds: seconds, latencies: answers.map(\.seconds))
        return IngestFigures(rate: rate, statuses: counts)
    }

    /// One station's offline queue sent in order, in the largest batches the hub takes.
    func replay(event: String, guestIDs: [String], deviceID: String) async throws -> ReplayFigures {
        let base: Int64 = 1_700_000_000_000
        let items = guestIDs.enumerated().map { index, guest in upload(guest: guest, device: deviceID, at: base + Int64(index) * 1_000, station: 0) }
        var results: [CheckInResult] = []
        let start = ContinuousClock.now
        for chunk in stride(from: 0, to: items.count, by: HubPaths.maximumBatchItems) {
            let batch = CheckInBatch(items: Array(items[chunk..<min(chunk + HubPaths.maximumBatchItems, items.count)]))
            results += try await send(HubPaths.checkIns(event: event), body: batch, as: CheckInBatchResult.self).value.results
        }
        return ReplayFigures(seconds: (ContinuousClock.now - start).seconds, results: results)
    }

    private func upload(guest: String, device: String, at milliseconds: Int64, station: Int) -> CheckInUpload {
        CheckInUpload(key: IdempotencyKey(deviceID: device, guestID: guest, scannedAt: Timestamp(milliseconds: milliseconds)),
                      station: "Door \(station)", operatorName: "Bench", source: .scanner)
    }
}
