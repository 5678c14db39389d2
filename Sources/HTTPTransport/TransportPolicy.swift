import Foundation
import NIOSSL

/// Which server addresses a station talks to, and which certificates it trusts there.
///
/// A server on another machine is reached over HTTPS: plain `http://` would carry passwords and
/// device tokens in the clear, so it is refused unless the operator says the network is trusted
/// (``allowInsecureHTTP``). `http://` to this machine (loopback) stays allowed: nothing crosses a
/// network. HTTPS is verified against the system trust store, or only against the private CA in
/// ``caFile``.
///
/// One policy for every server the station talks to: the hub (`ca_file` and `allow_insecure_http`
/// in kiosk.conf, `--ca-file` and `--allow-insecure-http` on the command line; kept with the
/// station's hub session as `{"caFile", "allowInsecureHTTP"}`) and pretix.
public struct TransportPolicy: Sendable, Equatable, Codable {
    /// A PEM file of the CA certificate(s) the server's certificate must chain to; nil: the system's.
    public var caFile: String?
    /// Whether `http://` to another machine is allowed (a trusted private network only).
    public var allowInsecureHTTP: Bool

    public init(caFile: String? = nil, allowInsecureHTTP: Bool = false) {
        // Absolute: the policy is kept with the station's settings and used from any working directory.
        self.caFile = caFile.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        self.allowInsecureHTTP = allowInsecureHTTP
    }

    /// Whether it says nothing (system trust store, HTTPS only).
    public var isDefault: Bool { caFile == nil && !allowInsecureHTTP }

    /// This policy when it says something, else the one kept with the station, else this default.
    public func orKept(_ kept: TransportPolicy?) -> TransportPolicy {
        isDefault ? (kept ?? self) : self
    }

    /// Refuses `url` when it is plain HTTP to another machine and that is not allowed.
    /// - Throws: ``TransportRefusal/insecureURL(_:)``.
    public func check(_ url: URL) throws(TransportRefusal) {
        guard url.scheme?.lowercased() == "http", !allowInsecureHTTP, !Self.isLoopback(host: url.host ?? "") else { return }
        throw .insecureURL(url.absoluteString)
    }

    /// Refuses `url` as ``check(_:)`` does, then gives the TLS settings of its requests: those of
    /// ``tlsConfiguration()`` for `https://`, none for `http://`.
    /// - Throws: ``TransportRefusal``.
    public func tls(for url: URL) throws(TransportRefusal) -> TLSConfiguration? {
        try check(url)
        return url.scheme?.lowercased() == "https" ? try tlsConfiguration() : nil
    }

    /// The TLS settings of requests to an `https://` server: full verification (chain and host
    /// name), against ``caFile`` only when one is given.
    /// - Throws: ``TransportRefusal/caFileUnreadable(path:reason:)`` when the file holds no certificate.
    public func tlsConfiguration() throws(TransportRefusal) -> TLSConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.certificateVerification = .fullVerification
        if let caFile {
            guard FileManager.default.isReadableFile(atPath: caFile) else {
                throw .caFileUnreadable(path: caFile, reason: "no such readable file")
            }
            let certificates: [NIOSSLCertificate]
            do {
                certificates = try NIOSSLCertificate.fromPEMFile(caFile)
            } catch {
                throw .caFileUnreadable(path: caFile, reason: "not a PEM certificate file")
            }
            guard !certificates.isEmpty else { throw .caFileUnreadable(path: caFile, reason: "no certificate in it") }
            tls.trustRoots = .certificates(certificates)
        }
        return tls
    }

    /// `localhost`, `127.0.0.0/8` and `::1`: addresses that never leave this machine.
    public static func isLoopback(host: String) -> Bool {
        var name = host.lowercased()
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        if name == "localhost" || name == "::1" { return true }
        let octets = name.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4, octets.allSatisfy({ UInt8($0) != nil }) else { return false }
        return octets[0] == "127"
    }
}

/// Why ``TransportPolicy`` refuses to talk to a server; each client says what to do in its own words.
public enum TransportRefusal: Error, Sendable, Equatable {
    /// Plain `http://` to another machine, not allowed.
    case insecureURL(String)
    /// The CA file cannot be used.
    case caFileUnreadable(path: String, reason: String)
}
