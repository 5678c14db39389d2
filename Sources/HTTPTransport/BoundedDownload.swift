import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// Runs one request and reads its answer into memory, but never more than a limit and never for
/// longer than a timeout: a hostile or broken server cannot make the station hold an endless
/// body, nor hang it by trickling one. The answer is refused as soon as its announced length or
/// the bytes received so far pass the limit, and the request is cancelled.
///
/// AsyncHTTPClient's own deadline stops at the response head; the body is read under the same
/// bound here (a timeout racing the read, which cancels it).
///
/// The station's clients share it: the hub client and the pretix client.
public struct BoundedDownload: Sendable {
    /// The largest answer accepted, in bytes.
    public let limit: Int

    public init(limit: Int) {
        self.limit = limit
    }

    /// The body passed ``limit``.
    public struct TooLarge: Error, Sendable {
        public var limit: Int
    }

    /// The whole exchange took longer than its timeout.
    public struct TimedOut: Error, Sendable {}

    public struct Answer: Sendable {
        public var status: Int
        public var headers: HTTPHeaders
        public var body: ByteBuffer
    }

    /// Sends `request` on `client` and returns the status, headers and body, within `timeout`.
    public func fetch(_ request: HTTPClientRequest, on client: HTTPClient, timeout: Duration) async throws -> Answer {
        let limit = self.limit
        return try await withThrowingTaskGroup(of: Answer?.self) { group in
            group.addTask {
                let response = try await client.execute(request, deadline: .now() + TimeAmount(timeout))
                let body: ByteBuffer
                do {
                    // Refuses a too-long Content-Length before reading, and a longer body as it comes.
                    body = try await response.body.collect(upTo: limit)
                } catch is NIOTooManyBytesError {
                    throw TooLarge(limit: limit)
                }
                return Answer(status: Int(response.status.code), headers: response.headers, body: body)
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let answer = first else { throw TimedOut() }
            return answer
        }
    }

    /// ``fetch(_:on:timeout:)`` on the station's one client, every failure a ``TransportFailure``
    /// naming the other side as the operator calls it (`server`).
    public func exchange(_ request: HTTPClientRequest, timeout: Duration, server: String = "server",
                         on client: HTTPClient = StationHTTPClient.shared) async throws(TransportFailure) -> Answer {
        do {
            return try await fetch(request, on: client, timeout: timeout)
        } catch {
            throw TransportFailure(error, server: server)
        }
    }
}

extension TimeAmount {
    /// A Swift `Duration` as NIO's time amount (nanoseconds).
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
