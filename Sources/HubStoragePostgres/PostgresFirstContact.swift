import HubStorage
import Logging
import NIOSSL
import PostgresNIO

extension PostgresDatabase {
    /// Connects once before anything else and says why that fails. The pool retries a refused
    /// connection for ever, so without this a wrong password, `sslmode` or `sslrootcert` would
    /// leave `checkin-hub` waiting without a word; a single connection fails at once, with
    /// PostgreSQL's own reason (which never contains the password).
    public func connect() async throws {
        do {
            let connection = try await PostgresConnection.connect(configuration: probeConfiguration, id: 0, logger: logger)
            try await connection.close()
        } catch {
            throw HubStoreError.unavailable("cannot connect to \(settingsDescription): \(Self.reason(error))")
        }
    }

    static func reason(_ error: any Error) -> String {
        guard let psql = error as? PSQLError else { return "\(type(of: error))" }
        if psql.code == .server, let message = psql.serverInfo?[.message] {
            return "PostgreSQL says \"\(message)\"; check the user, the password source (see --db-password-file) and sslmode"
        }
        if psql.code == .sslUnsupported { return "the server does not offer TLS; use sslmode=disable only on a private network" }
        if let underlying = psql.underlying {
            if String(reflecting: underlying).contains("CERTIFICATE_VERIFY_FAILED") || underlying is NIOSSLExtraError {
                return "its TLS certificate is not trusted; give its CA with sslrootcert=FILE in --db"
            }
            if underlying is NIOSSLError { return "the TLS handshake failed; check sslmode in --db" }
            return "\(underlying)"
        }
        return "\(psql.code)"
    }
}
