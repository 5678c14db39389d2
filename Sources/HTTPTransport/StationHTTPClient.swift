import AsyncHTTPClient
import NIOCore

/// The one HTTP client of a station process, for every server it talks to. Its connection pool
/// is keyed by host and TLS settings, so servers with different trust roots share it safely; it
/// lives as long as the process. The hub client and the pretix client both send on it.
public enum StationHTTPClient {
    public static let shared: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        // Servers are not followed elsewhere: a redirect could take a token to another address.
        configuration.redirectConfiguration = .disallow
        // Bounded reads count the bytes on the wire: no decompression to inflate past them.
        configuration.decompression = .disabled
        configuration.httpVersion = .http1Only
        // Fail at once when a server is down (the sync loop has its own backoff) instead of
        // retrying the connection until the request's deadline.
        configuration.connectionPool.retryConnectionEstablishment = false
        // Below the hub's 30 s idle timeout: a kept connection is closed here before the server
        // closes it under a request being sent (gunicorn, serving pretix, closes after each answer).
        configuration.connectionPool.idleTimeout = .seconds(20)
        configuration.timeout = .init(connect: .seconds(10), read: nil)
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()
}
