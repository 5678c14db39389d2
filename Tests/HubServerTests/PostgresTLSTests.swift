import Foundation
import KioskTestSupport
import Testing

/// `checkin-hub` against a PostgreSQL that accepts only TLS connections with a password:
/// `sslmode=verify-full` with `sslrootcert`, the password from a file or `PGPASSWORD`, and
/// never the password in what it prints.
@Suite(.hangGuard, .enabled(if: RealHub.available, "needs `checkin-hub`"), .tags(.endToEnd), .endToEnd, .blocking)
struct PostgresTLSTests {
    let hub = RealHub.executable
    let password = "pg-Secret-4711"

    @Test func theHubUsesAVerifiedTLSConnectionWithThePasswordFromAFileOrTheEnvironmentAndNeverPrintsIt() throws {
        let certificates = try TestCertificates()
        defer { certificates.remove() }
        let cluster = try PostgresCluster.requiringTLS(certificates, password: password)
        defer { cluster.stop() }
        let passwordFile = certificates.directory.appending("db-password").path
        try (password + "\n").write(toFile: passwordFile, atomically: true, encoding: .utf8)
        let base = "postgres://kiosk@127.0.0.1:\(cluster.port)/postgres"
        let verified = base + "?sslmode=verify-full&sslrootcert=\(certificates.caFile)"

        let created = try run(hub, ["event", "create", "--db", verified, "--name", "Over TLS", "--json"],
                              environment: ["CHECKIN_HUB_DB_PASSWORD_FILE": passwordFile], timeout: 60)
        #expect(created.status == 0, "\(created.stderr)")
        #expect(try created.json()["name"] as? String == "Over TLS")
        let fromEnvironment = try run(hub, ["event", "create", "--db", base + "?sslmode=require", "--name", "Env", "--json"],
                                      environment: ["PGPASSWORD": password], timeout: 60)
        #expect(fromEnvironment.status == 0, "\(fromEnvironment.stderr)")

        // Refused at once, in words, never echoing the password: without TLS (the server rejects
        // it), with TLS but not trusting the server's CA, with a wrong password.
        let refusals: [(url: String, environment: [String: String], says: String)] = [
            (base + "?sslmode=disable", ["PGPASSWORD": password], "no encryption"),
            ("postgres://kiosk:\(password)@127.0.0.1:\(cluster.port)/postgres?sslmode=verify-full", [:], "sslrootcert"),
            (verified, ["PGPASSWORD": password + "-wrong"], "password authentication failed"),
        ]
        for refusal in refusals {
            let started = ContinuousClock.now
            let refused = try run(hub, ["event", "create", "--db", refusal.url, "--name", "Refused", "--json"], environment: refusal.environment, timeout: 60)
            #expect(refused.status != 0 && !refused.signaled, "\(refusal.url)")
            #expect(ContinuousClock.now - started < .seconds(30), "refused at once, not after retrying")
            #expect(refused.stderr.contains(refusal.says), "\(refused.stderr)")
            #expect(!(refused.stdout + refused.stderr).contains(password), "\(refused.stderr)")
        }
        // A bad URL with a password in it: the error names the URL with the password redacted.
        let bad = try run(hub, ["event", "create", "--db", "postgresql://kiosk:\(password)@/postgres?sslmode=verify_full", "--name", "X"], timeout: 60)
        #expect(bad.status != 0)
        #expect(!(bad.stdout + bad.stderr).contains(password), "\(bad.stderr)")
        #expect(bad.stderr.contains("kiosk:***@"), "\(bad.stderr)")
    }
}
