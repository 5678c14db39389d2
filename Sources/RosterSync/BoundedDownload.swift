import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// Fetches answers into memory, but never more than a limit: a hostile or broken hub cannot
/// make the station hold an endless body. The answer is refused as soon as its announced length
/// or the bytes received so far pass the limit, and the request is cancelled.
///
/// URLSession's `data(for:)` reads the whole body before the caller sees anything, so this is
/// the session's delegate, and keeps one accumulator per running task.
final class BoundedDownload: NSObject, URLSessionDataDelegate, Sendable {
    /// The largest answer accepted, in bytes.
    let limit: Int
    private let tasks = Mutex<[Int: Transfer]>([:])

    struct Transfer {
        var continuation: CheckedContinuation<(Data, HTTPURLResponse), any Error>
        var data = Data()
        var response: HTTPURLResponse?
        var refused = false
    }

    /// The body passed ``limit``.
    struct TooLarge: Error {
        var limit: Int
    }

    init(limit: Int) {
        self.limit = limit
    }

    /// Runs `request` on `session` (whose delegate this is) and returns the body and the response.
    func fetch(_ request: URLRequest, on session: URLSession) async throws -> (Data, HTTPURLResponse) {
        let task = session.dataTask(with: request)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                tasks.withLock { $0[task.taskIdentifier] = Transfer(continuation: continuation) }
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        let tooLarge = response.expectedContentLength > Int64(limit)
        tasks.withLock {
            $0[dataTask.taskIdentifier]?.response = response as? HTTPURLResponse
            if tooLarge { $0[dataTask.taskIdentifier]?.refused = true }
        }
        completionHandler(tooLarge ? .cancel : .allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let overflow = tasks.withLock { tasks -> Bool in
            guard var transfer = tasks[dataTask.taskIdentifier], !transfer.refused else { return false }
            if transfer.data.count + data.count > limit {
                transfer.refused = true
                transfer.data = Data()
                tasks[dataTask.taskIdentifier] = transfer
                return true
            }
            transfer.data.append(data)
            tasks[dataTask.taskIdentifier] = transfer
            return false
        }
        if overflow { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let transfer = tasks.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if transfer.refused {
            transfer.continuation.resume(throwing: TooLarge(limit: limit))
        } else if let error {
            transfer.continuation.resume(throwing: error)
        } else if let response = transfer.response ?? task.response as? HTTPURLResponse {
            transfer.continuation.resume(returning: (transfer.data, response))
        } else {
            transfer.continuation.resume(throwing: URLError(.badServerResponse))
        }
    }
}
