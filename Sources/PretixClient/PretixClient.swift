import AsyncHTTPClient
import Foundation
import HTTPTransport
import NIOSSL

/// The station as a pretix device: pretix's device API over HTTP or HTTPS, with AsyncHTTPClient
/// (a private CA can be trusted, see ``HTTPTransport/TransportPolicy``), every answer read
/// within a size and time bound, and every failure a typed ``PretixError``.
///
/// A value: it holds the server and, once initialized, the device (its token and security
/// profile). Calls a profile does not allow are refused here, before anything is sent.
///
/// ```swift
/// let handshake = try PretixHandshake(scanned: qrText)
/// let device = try await PretixClient(server: handshake.server).initialize(token: handshake.token, identity: identity)
/// let pretix = try PretixClient(server: handshake.server, device: device)
/// var cursor = PretixOrderCursor.fresh
/// var next: PretixNextPage?
/// repeat {
///     let page = try await pretix.ordersPage(event: "conference", cursor: cursor, next: next)
///     // store page.orders and page.cursor in one transaction
///     (cursor, next) = (page.cursor, page.next)
/// } while next != nil
/// ```
public struct PretixClient: Sendable {
    /// pretix's address, without a trailing slash (`https://pretix.eu`).
    public let server: URL
    /// The initialized device, or `nil` before `device/initialize`.
    public let device: PretixDevice?
    let timeout: Duration
    let download: BoundedDownload
    let tls: TLSConfiguration?
    let maximumPages: Int

    /// The largest answer read: an orders page holds 50 orders; with hostile or broken data it
    /// is refused here rather than held in memory.
    public static let maximumAnswerBytes = 16 * 1024 * 1024
    /// The most pages one list download follows (50 results each: a million orders).
    public static let maximumPages = 20_000

    /// - Parameters:
    ///   - timeout: bound of every request, answer included.
    ///   - policy: which addresses are allowed and which CA is trusted.
    /// - Throws: ``PretixError/insecureURL(_:)``, ``PretixError/caFileUnreadable(path:reason:)``.
    public init(server: URL, device: PretixDevice? = nil, timeout: Duration = .seconds(10),
                maximumAnswerBytes: Int = PretixClient.maximumAnswerBytes, maximumPages: Int = PretixClient.maximumPages,
                policy: TransportPolicy = TransportPolicy()) throws(PretixError) {
        do throws(TransportRefusal) { tls = try policy.tls(for: server) } catch { throw PretixError(error) }
        self.server = server
        self.device = device
        self.timeout = timeout
        self.maximumPages = maximumPages
        download = BoundedDownload(limit: maximumAnswerBytes)
    }

    /// Parses a pretix address as an organizer or a handshake gives it: `http(s)://host[:port][/path]`,
    /// a trailing `/` or `/api/v1/` dropped.
    /// - Throws: ``PretixError/invalidServerURL(_:)``.
    public static func parseServerURL(_ text: String) throws(PretixError) -> URL {
        var trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        if trimmed.lowercased().hasSuffix("/api/v1") { trimmed.removeLast("/api/v1".count) }
        guard trimmed.utf8.count <= 1_024, let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", url.host?.isEmpty == false, url.query == nil, url.fragment == nil,
              url.user == nil, url.password == nil
        else { throw .invalidServerURL(String(text.prefix(200))) }
        return url
    }

    /// The device, or the refusal to call anything that needs one.
    func requireDevice() throws(PretixError) -> PretixDevice {
        guard let device else { throw .notInitialized }
        return device
    }
}
