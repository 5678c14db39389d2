import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix
import NIOSSL

/// Why a request got no usable answer, in the few words the operator reads ("connection refused",
/// "timed out"): certificate failures told apart, since those need a CA file, not a network check,
/// and an answer refused for its size. Each client says it in its own error type.
public enum TransportFailure: Error, Sendable, Equatable {
    /// No answer: connection refused or reset, unknown host, no network, timed out.
    case unreachable(String)
    /// The server's HTTPS certificate did not verify against the trusted CAs (or not for its name).
    case untrusted(String)
    /// The answer passed the download's limit of this many bytes.
    case tooLarge(limit: Int)

    /// What `error`, thrown by sending a request, means. `server` is what the operator calls the
    /// other side: "hub" for the station's hub ("it is not issued for this hub's address").
    public init(_ error: any Error, server: String = "server") {
        if let tooLarge = error as? BoundedDownload.TooLarge {
            self = .tooLarge(limit: tooLarge.limit)
        } else if let reason = Self.untrustedReason(error, server: server) {
            self = .untrusted(reason)
        } else {
            self = .unreachable(Self.describe(error, server: server))
        }
    }

    /// Why the server's certificate was refused, or nil when `error` is not a certificate failure.
    static func untrustedReason(_ error: any Error, server: String) -> String? {
        if let extra = error as? NIOSSLExtraError, extra == .failedToValidateHostname {
            return "it is not issued for this \(server)'s address"
        }
        let text = String(reflecting: error)
        if text.contains("CERTIFICATE_VERIFY_FAILED") {
            return "it is not signed by a trusted CA, or has expired"
        }
        if text.contains("failedToValidateHostname") { return "it is not issued for this \(server)'s address" }
        return nil
    }

    /// `error` from sending a request, in a few words.
    static func describe(_ error: any Error, server: String) -> String {
        if error is BoundedDownload.TimedOut { return "timed out" }
        if let client = error as? HTTPClientError {
            switch client {
            case .deadlineExceeded, .connectTimeout, .readTimeout, .writeTimeout, .tlsHandshakeTimeout, .getConnectionFromPoolTimeout:
                return "timed out"
            case .remoteConnectionClosed: return "connection lost"
            case .cancelled: return "cancelled"
            default: return "network error: \(client)"
            }
        }
        if let channel = error as? ChannelError, case .connectTimeout = channel { return "timed out" }
        if let connection = error as? NIOConnectionError {
            if connection.connectionErrors.isEmpty && (connection.dnsAError != nil || connection.dnsAAAAError != nil) {
                return "unknown host"
            }
            if let first = connection.connectionErrors.first { return describe(first.error, server: server) }
        }
        if let io = error as? IOError {
            switch io.errnoCode {
            case ECONNREFUSED: return "connection refused"
            case ECONNRESET, EPIPE: return "connection lost"
            case ENETUNREACH, EHOSTUNREACH: return "no network"
            case ETIMEDOUT: return "timed out"
            default: return "network error \(io.errnoCode)"
            }
        }
        if error is NIOSSLError { return "TLS handshake failed (is the \(server) serving HTTPS on this port?)" }
        if error is CancellationError { return "cancelled" }
        return String(describing: error)
    }
}
