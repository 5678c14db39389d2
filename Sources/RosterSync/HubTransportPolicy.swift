import Foundation
import NIOSSL

/// Which hub addresses a station talks to, and which certificates it trusts there.
///
/// A hub on another machine is reached over HTTPS: plain `http://` would carry staff passwords
/// and device tokens in the clear, so it is refused unless the operator says the network is
/// trusted (`allow_insecure_http = true`). `http://` to this machine (loopback) stays allowed:
/// nothing crosses a network. HTTPS is verified against the system trust store, or only against
/// the private CA in ``caFile`` (`ca_file` in kiosk.conf, `--ca-file` on the command line).
///
/// What a station signed in with is kept with its session (``StationSession/transport``): later
/// commands that name no trust of their own (`sudo kiosk sync` run by support staff) use it.
public struct HubTransportPolicy: Sendable, Equatable, Codable {
    /// A PEM file of the CA certificate(s) the hub's certificate must chain to; nil: the system's.
    public var caFile: String?
    /// Whether `http://` to another machine is allowed (a trusted private network only).
    public var allowInsecureHTTP: Bool

    public init(caFile: String? = nil, allowInsecureHTTP: Bool = false) {
        // Absolute: the policy is kept with the session and used from any working directory.
        self.caFile = caFile.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        self.allowInsecureHTTP = allowInsecureHTTP
    }

    /// Whether it says nothing (system trust store, HTTPS only).
    public var isDefault: Bool { caFile == nil && !allowInsecureHTTP }

    /// This policy when it says something, else the one kept with the session, else this default.
    public func orKept(_ kept: HubTransportPolicy?) -> HubTransportPolicy {
        isDefault ? (kept ?? self) : self
    }

    /// Refuses `url` when it is plain HTTP to another machine and that is not allowed.
    /// - Throws: ``SyncError/insecureHubURL(_:)``, saying what to do.
    public func check(_ url: URL) throws(SyncError) {
        guard url.scheme?.lowercased() == "http", !allowInsecureHTTP, !Self.isLoopback(host: url.host ?? "") else { return }
        throw .insecureHubURL(url.absoluteString)
    }

    /// The TLS settings of requests to an `https://` hub: full verification (chain and host
    /// name), against ``caFile`` only when one is given.
    /// - Throws: ``SyncError/caFileUnreadable(path:reason:)`` when the file holds no certificate.
    public func tlsConfiguration() throws(SyncError) -> TLSConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.certificateVerification = .fullVerification
        if let caFile {
            let certificates: [NIOSSLCertificate]
            do {
                guard FileManager.default.isReadableFile(atPath: caFile) else {
                    throw SyncError.caFileUnreadable(path: caFile, reason: "no such readable file")
                }
                certificates = try NIOSSLCertificate.fromPEMFile(caFile)
            } catch let error as SyncError {
                throw error
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
