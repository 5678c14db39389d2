import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// One open live event page as the benchmark sees it: the page's server-sent stream
/// (`GET /events/{id}/live`, signed in by the session cookie), read as it arrives, and the
/// moment each update came.
///
/// URLSession on Linux has no `bytes(for:)`: a data delegate hands over each piece of the body
/// as libcurl reads it.
final class LivePageFollower: NSObject, URLSessionDataDelegate, Sendable {
    /// One `event: counts` message: its JSON and when it arrived.
    struct Update: Sendable {
        var json: [String: any Sendable]
        var at: ContinuousClock.Instant
    }

    private let state = Mutex<(buffer: String, continuation: AsyncStream<Update>.Continuation?)>(("", nil))
    let updates: AsyncStream<Update>
    private let session: Mutex<URLSession?> = Mutex(nil)

    init(base: URL, event: String, cookie: String) {
        let (stream, continuation) = AsyncStream<Update>.makeStream(bufferingPolicy: .unbounded)
        updates = stream
        super.init()
        state.withLock { $0.continuation = continuation }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 3_600
        let session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
        var request = URLRequest(url: URL(string: "/events/\(event)/live", relativeTo: base)!)
        request.setValue("hub_session=\(cookie)", forHTTPHeaderField: "Cookie")
        request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
        session.dataTask(with: request).resume()
        self.session.withLock { $0 = session }
    }

    func close() {
        session.withLock { $0?.invalidateAndCancel(); $0 = nil }
        state.withLock { $0.continuation?.finish(); $0.continuation = nil }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let now = ContinuousClock.now
        let messages: [String] = state.withLock { state in
            state.buffer += String(decoding: data, as: UTF8.self)
            var complete: [String] = []
            while let end = state.buffer.range(of: "\n\n") {
                complete.append(String(state.buffer[..<end.lowerBound]))
                state.buffer.removeSubrange(..<end.upperBound)
            }
            return complete
        }
        for message in messages {
            guard message.hasPrefix("event: counts\n"),
                  let line = message.split(separator: "\n").first(where: { $0.hasPrefix("data: ") }),
                  let object = try? JSONSerialization.jsonObject(with: Data(line.dropFirst(6).utf8)) as? [String: Any] else { continue }
            let json = object.compactMapValues { value -> (any Sendable)? in
                switch value {
                case let number as NSNumber: number.intValue
                case let text as String: text
                default: nil
                }
            }
            state.withLock { $0.continuation?.yield(Update(json: json, at: now)) }
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        state.withLock { $0.continuation?.finish(); $0.continuation = nil }
    }
}
