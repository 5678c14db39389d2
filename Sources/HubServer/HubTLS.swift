import Foundation
import HummingbirdCore
import HummingbirdTLS
import NIOSSL

/// The hub's HTTPS settings from `--tls-cert` and `--tls-key` (PEM files), checked before the
/// server starts so a wrong path or a key of another certificate is an error at start, in words.
public enum HubTLS {
    /// A server TLS configuration with the certificate chain (leaf first) and its private key.
    /// - Throws: ``HubTLSError`` naming the file and what to do.
    public static func serverConfiguration(certificateFile: String, keyFile: String) throws(HubTLSError) -> HubTLSSettings {
        let chain: [NIOSSLCertificate]
        do { chain = try NIOSSLCertificate.fromPEMFile(certificateFile) } catch {
            throw .unreadableCertificate(certificateFile)
        }
        guard !chain.isEmpty else { throw .unreadableCertificate(certificateFile) }
        let key: NIOSSLPrivateKey
        do { key = try NIOSSLPrivateKey(file: keyFile, format: .pem) } catch {
            throw .unreadableKey(keyFile)
        }
        let configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
        // A context is what the server builds per connection: building one now catches a key
        // that does not belong to the certificate.
        do { _ = try NIOSSLContext(configuration: configuration) } catch {
            throw .keyDoesNotMatch(certificate: certificateFile, key: keyFile)
        }
        return HubTLSSettings(configuration: configuration)
    }
}

/// A checked server TLS configuration, ready to wrap the hub's HTTP/1 channel.
public struct HubTLSSettings: Sendable {
    let configuration: TLSConfiguration

    /// `base` (the HTTP/1 channel, idle timeout included) inside TLS.
    func wrap(_ base: HTTPServerBuilder) throws -> HTTPServerBuilder {
        try .tls(base, tlsConfiguration: configuration)
    }
}

/// Why `--tls-cert` / `--tls-key` cannot be used.
public enum HubTLSError: Error, Sendable, Equatable, CustomStringConvertible {
    case unreadableCertificate(String)
    case unreadableKey(String)
    case keyDoesNotMatch(certificate: String, key: String)

    public var description: String {
        switch self {
        case .unreadableCertificate(let path):
            "Cannot read a PEM certificate from \(path): give --tls-cert the hub's certificate (leaf first, then any intermediates) in PEM."
        case .unreadableKey(let path):
            "Cannot read a PEM private key from \(path): give --tls-key the certificate's unencrypted private key, readable by this user."
        case .keyDoesNotMatch(let certificate, let key):
            "The key in \(key) does not belong to the certificate in \(certificate): give the pair issued together."
        }
    }
}
