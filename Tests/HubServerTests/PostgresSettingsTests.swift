@testable import HubServer
@testable import HubStoragePostgres
import HubStorage
import KioskTestSupport
import Foundation
import Logging
import Testing

/// `--db postgres://…`: TLS from `sslmode`, the password from the URL, a file or `PGPASSWORD`,
/// and never a password in an error.
@Suite struct PostgresSettingsTests {
    @Test func sslModeChoosesTheTLSSettings() throws {
        let plain = try PostgresSettings.parse("postgres://hub@db.example.org/checkin", environment: [:])
        #expect(plain.sslMode == .disable)
        #expect(try plain.tlsConfiguration() == nil)
        let required = try PostgresSettings.parse("postgres://hub@db.example.org/checkin?sslmode=require", environment: [:])
        #expect(try required.tlsConfiguration() != nil)
        #expect(required.tlsDescription == "TLS, certificate not verified")
        let verified = try PostgresSettings.parse("postgres://hub@db.example.org:6432/checkin?sslmode=verify-full", environment: [:])
        #expect(try verified.tlsConfiguration() != nil)
        #expect(verified.tlsDescription == "TLS, certificate verified for db.example.org")
        #expect(verified.port == 6432)
        let ca = try PostgresSettings.parse("postgres://hub@db/checkin?sslmode=verify-ca", environment: [:])
        #expect(try ca.tlsConfiguration() != nil)
        #expect(ca.tlsDescription == "TLS, certificate verified (CA only)")
        #expect(plain.tlsDescription == "no TLS")
    }

    @Test func aTypoInSSLModeIsRefusedNotReadAsDisable() {
        #expect(throws: HubStoreError.self) { try PostgresSettings.parse("postgres://hub@db/checkin?sslmode=verify_full", environment: [:]) }
        #expect(throws: HubStoreError.self) { try PostgresSettings.parse("postgres://hub@db/checkin?ssl=true", environment: [:]) }
    }

    @Test func anUnreadableRootCertificateIsAnErrorNamingIt() throws {
        let settings = try PostgresSettings.parse("postgres://hub@db/checkin?sslmode=verify-full&sslrootcert=/nonexistent/root.pem", environment: [:])
        #expect(settings.rootCertificateFile == "/nonexistent/root.pem")
        do {
            _ = try settings.tlsConfiguration()
            Issue.record("an unreadable sslrootcert was accepted")
        } catch {
            #expect(error.description.contains("/nonexistent/root.pem"))
        }
    }

    @Test func thePasswordComesFromTheURLThenTheFileThenPGPASSWORD() throws {
        let file = TemporaryDirectory("pg-password")
        defer { file.remove() }
        let path = file.appending("password").path
        try "from-file\n".write(toFile: path, atomically: true, encoding: .utf8)
        let environment = ["PGPASSWORD": "from-env"]
        #expect(try PostgresSettings.parse("postgres://hub:in-url@db/checkin", passwordFile: path, environment: environment).password == "in-url")
        #expect(try PostgresSettings.parse("postgres://hub@db/checkin", passwordFile: path, environment: environment).password == "from-file")
        #expect(try PostgresSettings.parse("postgres://hub@db/checkin", environment: environment.merging([PostgresSettings.passwordFileVariable: path]) { $1 }).password == "from-file")
        #expect(try PostgresSettings.parse("postgres://hub@db/checkin", environment: environment).password == "from-env")
        #expect(try PostgresSettings.parse("postgres://hub@db/checkin", environment: [:]).password == nil)
        #expect(throws: HubStoreError.self) { try PostgresSettings.parse("postgres://hub@db/checkin", passwordFile: "/nonexistent/pw", environment: [:]) }
    }

    @Test func noErrorOrDescriptionEverShowsThePassword() throws {
        let secret = "s3cr3t-Pa55"
        #expect(!PostgresSettings.redacted("postgres://hub:\(secret)@db.example.org/checkin").contains(secret))
        #expect(PostgresSettings.redacted("postgres://hub:\(secret)@db.example.org/checkin").contains("hub:***@db.example.org"))
        #expect(!PostgresSettings.redacted("mysql://hub:\(secret)@db/checkin").contains(secret))
        #expect(!PostgresSettings.redacted("hub:\(secret)@db/checkin").contains(secret))
        for url in ["postgres://hub:\(secret)@/checkin", "postgres://hub:\(secret)@db/checkin?sslmode=maybe", "postgres://hub:\(secret)@db/c?x=1"] {
            do {
                _ = try PostgresSettings.parse(url, environment: [:])
                Issue.record("accepted \(url)")
            } catch {
                #expect(!error.description.contains(secret), "\(error.description)")
                #expect(!String(reflecting: error).contains(secret))
            }
        }
        do {
            _ = try HubDatabase.open("mysql://hub:\(secret)@db/checkin", logger: .init(label: "test"))
            Issue.record("accepted a mysql URL")
        } catch {
            #expect(!String(describing: error).contains(secret), "\(error)")
        }
        let settings = try PostgresSettings.parse("postgres://hub@db/checkin", environment: ["PGPASSWORD": secret])
        #expect(!settings.description.contains(secret))
    }
}
