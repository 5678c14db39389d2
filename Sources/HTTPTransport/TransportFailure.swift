import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix
import NIOSSL

/// Transport failures in the few words the operator reads ("connection refused", "timed out"),
/// and certificate failures told apart from them: those need a CA file, not a network check.
///
/// `server` is what the operator calls the other side in these words: "hub" for the station's
/// hub ("it is not issued for this hub's address"), "server" by default.
public enum TransportFailure {
    /// Why the server's certificate was refused, or nil when `error` is not a certificate failure.
    public static func untrustedReason(_ error: any Error, server: String = "server") -> String? {
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
    public static func describe(_ error: any Error, server: String = "server") -> String {
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
