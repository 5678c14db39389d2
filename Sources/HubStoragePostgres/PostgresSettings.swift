import Foundation
import HubStorage
import NIOSSL
import PostgresNIO

/// `--db postgres://USER@HOST:PORT/DB?sslmode=…&sslrootcert=…` read into connection settings,
/// with the password kept out of the URL (and so out of `ps`, shell history and logs).
///
/// The password is the URL's if it has one, else the first line of the password file
/// (`--db-password-file`, or `$CHECKIN_HUB_DB_PASSWORD_FILE` for every `checkin-hub` command),
/// else `$PGPASSWORD`. TLS follows libpq's `sslmode`: `disable` (the default: loopback or a
/// private network), `require` (encrypted, certificate not checked), `verify-ca` (signed by the
/// trusted CA) and `verify-full` (and issued for HOST); the trusted CA is `sslrootcert` (a PEM
/// file), else the system's trust store.
public struct PostgresSettings: Sendable {
    var host: String
    var port: Int
    var username: String
    var password: String?
    var database: String?
    var sslMode: SSLMode
    var rootCertificateFile: String?

    enum SSLMode: String, Sendable, CaseIterable {
        case disable, require
        case verifyCA = "verify-ca"
        case verifyFull = "verify-full"
    }

    /// The environment variable naming a password file, for the commands without `--db-password-file`.
    static let passwordFileVariable = "CHECKIN_HUB_DB_PASSWORD_FILE"

    /// - Throws: ``HubStoreError/invalidDatabaseURL(_:)`` with the URL redacted, or
    ///   ``HubStoreError/unavailable(_:)`` for an unreadable password file.
    static func parse(_ url: String, passwordFile: String? = nil,
                      environment: [String: String] = ProcessInfo.processInfo.environment) throws(HubStoreError) -> PostgresSettings {
        guard let components = URLComponents(string: url), ["postgres", "postgresql"].contains(components.scheme ?? ""),
              let host = components.host, !host.isEmpty
        else { throw .invalidDatabaseURL(redacted(url)) }
        var query: [String: String] = [:]
        for item in components.queryItems ?? [] { query[item.name] = item.value ?? "" }
        let unknown = Set(query.keys).subtracting(["sslmode", "sslrootcert"])
        guard unknown.isEmpty else { throw .invalidDatabaseURL(redacted(url) + " (unknown option \(unknown.sorted().joined(separator: ", ")): use sslmode and sslrootcert)") }
        let mode: SSLMode
        if let text = query["sslmode"] {
            guard let parsed = SSLMode(rawValue: text) else {
                throw .invalidDatabaseURL(redacted(url) + " (sslmode must be one of \(SSLMode.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            mode = parsed
        } else {
            mode = .disable
        }
        var password = components.password
        if password == nil, let file = passwordFile ?? environment[passwordFileVariable].flatMap({ $0.isEmpty ? nil : $0 }) {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw .unavailable("cannot read the password file \(file); check its path and that this user may read it")
            }
            password = text.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
        }
        if password == nil, let fromEnvironment = environment["PGPASSWORD"], !fromEnvironment.isEmpty { password = fromEnvironment }
        return PostgresSettings(
            host: host, port: components.port ?? 5432, username: components.user ?? "postgres", password: password,
            database: components.path.isEmpty ? nil : String(components.path.dropFirst()), sslMode: mode,
            rootCertificateFile: query["sslrootcert"].flatMap { $0.isEmpty ? nil : $0 })
    }

    /// `url` with its password replaced by `***`: safe for messages and logs. Text, not URL
    /// parsing: whatever was given (a typo, no scheme) may hold `user:password@`.
    public static func redacted(_ url: String) -> String {
        guard let at = url.lastIndex(of: "@") else { return url }
        let start = url.range(of: "://")?.upperBound ?? url.startIndex
        guard start <= at, let colon = url[start..<at].firstIndex(of: ":") else { return url }
        return url[..<colon] + ":***" + url[at...]
    }

    /// The TLS settings `sslmode` asks for; nil for `disable`.
    func tlsConfiguration() throws(HubStoreError) -> TLSConfiguration? {
        var tls = TLSConfiguration.makeClientConfiguration()
        switch sslMode {
        case .disable: return nil
        case .require: tls.certificateVerification = .none
        case .verifyCA: tls.certificateVerification = .noHostnameVerification
        case .verifyFull: tls.certificateVerification = .fullVerification
        }
        if let rootCertificateFile, sslMode != .require {
            do { tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(rootCertificateFile)) } catch {
                throw .unavailable("cannot read sslrootcert \(rootCertificateFile) as PEM certificates; check the path in --db")
            }
        }
        return tls
    }

    var clientConfiguration: PostgresClient.Configuration {
        get throws(HubStoreError) {
            let tls: PostgresClient.Configuration.TLS = try tlsConfiguration().map { .require($0) } ?? .disable
            return PostgresClient.Configuration(host: host, port: port, username: username, password: password, database: database, tls: tls)
        }
    }

    var connectionConfiguration: PostgresConnection.Configuration {
        get throws(HubStoreError) {
            var tls = PostgresConnection.Configuration.TLS.disable
            if let configuration = try tlsConfiguration() {
                do { tls = .require(try NIOSSLContext(configuration: configuration)) } catch {
                    throw .unavailable("cannot set up TLS to PostgreSQL (\(error)); check sslrootcert in --db")
                }
            }
            return PostgresConnection.Configuration(host: host, port: port, username: username, password: password, database: database, tls: tls)
        }
    }
}

extension PostgresSettings: CustomStringConvertible {
    /// Never the password.
    public var description: String {
        "postgres://\(username)@\(host):\(port)/\(database ?? "") (\(tlsDescription)" + (password == nil ? ")" : ", password set)")
    }

    /// What `sslmode` protects, in words for the start-up log.
    var tlsDescription: String {
        switch sslMode {
        case .disable: "no TLS"
        case .require: "TLS, certificate not verified"
        case .verifyCA: "TLS, certificate verified (CA only)"
        case .verifyFull: "TLS, certificate verified for \(host)"
        }
    }
}
