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
        var request = URLRequest(url: URL(string: path, relativeTo: base)!)
        if let body {
            request.httpMethod = "POST"
            request.httpBody = try HubJSON.encoder().encode(body)
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
        return (try HubJSON.decoder().decode(Answer.self, from: data), seconds)
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
    func ingest(event: String, guestIDs: [String], stations: Int, batch: Int) async throws -> IngestFigures {
        let now = Timestamp.now().milliseconds
        let start = ContinuousClock.now
        let results = try await withThrowingTaskGroup(of: ([Double], [UploadStatus: Int]).self) { group in
            for station in 0..<stations {
                let mine = stride(from: station, to: guestIDs.count, by: stations).map { guestIDs[$0] }
                group.addTask {
                    var latencies: [Double] = [], counts: [UploadStatus: Int] = [:]
                    let items = mine.enumerated().map { index, guest in
                        upload(guest: guest, device: "bench-\(station)", at: now - Int64(mine.count - index) * 10, station: station)
                    }
                    for chunk in stride(from: 0, to: items.count, by: batch) {
                        let answer = try await send(HubPaths.checkIns(event: event), body: CheckInBatch(items: Array(items[chunk..<min(chunk + batch, items.count)])),
                                                    as: CheckInBatchResult.self)
                        latencies.append(answer.seconds)
                        for result in answer.value.results { counts[result.status, default: 0] += 1 }
                    }
                    return (latencies, counts)
                }
            }
            return try await group.reduce(into: ([Double](), [UploadStatus: Int]())) { total, part in
                total.0 += part.0
                total.1.merge(part.1, uniquingKeysWith: +)
            }
        }
        let rate = RateFigures(items: guestIDs.count, requests: results.0.count, seconds: (ContinuousClock.now - start).seconds, latencies: results.0)
        return IngestFigures(rate: rate, statuses: results.1)
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

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
