import Foundation
import KioskStore
import KioskTestSupport
import RosterSync
import Testing

/// A station process and a `checkin-hub serve --tls-cert --tls-key` process: HTTPS with a
/// private CA (`--ca-file`), a refused certificate without it, and plain HTTP to another machine
/// refused as a status state unless `--allow-insecure-http`.
@Suite(.hangGuard, .enabled(if: RealHub.available, "needs `checkin-hub serve`"), .tags(.endToEnd), .endToEnd, .blocking)
struct HubTLSProcessTests {
    let kiosk = BuiltProducts.executable("kiosk")

    func signIn(_ hub: RealHub, url: String? = nil, data: String, _ extra: [String]) throws -> ProcessResult {
        try run(kiosk, ["signin", "--hub", url ?? hub.url, "--email", hub.email, "--station", "Door TLS", "--data-dir", data] + extra,
                stdin: hub.password + "\n")
    }

    @Test func aStationSignsInAndSyncsOverHTTPSTrustingItsHubsPrivateCA() throws {
        let certificates = try TestCertificates()
        defer { certificates.remove() }
        let hub = try RealHub(guests: 40, serveArguments: ["--tls-cert", certificates.certificateFile, "--tls-key", certificates.keyFile])
        defer { hub.remove() }
        let directory = TemporaryDirectory("tls-station")
        defer { directory.remove() }
        let data = directory.appending("data").path
        let trust = ["--ca-file", certificates.caFile]
        #expect(hub.url.hasPrefix("https://"))

        let signin = try signIn(hub, data: data, trust)
        #expect(signin.status == 0, "\(signin.stderr)")
        // The CA the station signed in with is kept with its session: later commands need not repeat it
        // (support staff running `sudo kiosk sync` on a station set up by kiosk.conf).
        let use = try run(kiosk, ["use", hub.eventID, "--data-dir", data])
        #expect(use.status == 0, "\(use.stderr)")
        let sync = try run(kiosk, ["sync", "--json", "--data-dir", data] + trust)
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(try (sync.json()["pulled"] as? [String: Any])?["guests"] as? Int == 40)

        // A check-in goes up over the same HTTPS connection settings.
        #expect(try run(kiosk, ["checkin", "CODE000007", "--data-dir", data]).status == 0)
        let push = try run(kiosk, ["sync", "--json", "--data-dir", data])
        #expect(push.status == 0, "\(push.stderr)")
        #expect(try hub.stats()["checked_in"] as? Int == 1)
        let status = try run(kiosk, ["status", "--json", "--data-dir", data]).json()
        #expect((status["sync"] as? [String: Any])?["state"] as? String == "online")
    }

    @Test func withoutTheCAFileTheStationRefusesTheHubsCertificateAndSaysWhatToDo() throws {
        let certificates = try TestCertificates()
        defer { certificates.remove() }
        let hub = try RealHub(guests: 5, serveArguments: ["--tls-cert", certificates.certificateFile, "--tls-key", certificates.keyFile])
        defer { hub.remove() }
        let directory = TemporaryDirectory("tls-untrusted")
        defer { directory.remove() }
        let data = directory.appending("data").path

        // The system trust store does not know the private CA.
        let refused = try signIn(hub, data: data, [])
        #expect(refused.status == 76, "\(refused.stderr)")
        #expect(refused.stderr.contains("certificate is not trusted"), "\(refused.stderr)")
        #expect(refused.stderr.contains("ca_file") && refused.stderr.contains("--ca-file"), "\(refused.stderr)")

        // Signed in with the CA, later commands use the CA kept with the session.
        #expect(try signIn(hub, data: data, ["--ca-file", certificates.caFile]).status == 0)
        let events = try run(kiosk, ["events", "--data-dir", data])
        #expect(events.status == 0, "\(events.stderr)")

        // A CA file that is not one is an error naming it.
        let bogus = directory.appending("not-a-ca.pem").path
        try "hello\n".write(toFile: bogus, atomically: true, encoding: .utf8)
        let unusable = try run(kiosk, ["events", "--data-dir", data, "--ca-file", bogus])
        #expect(unusable.status == 78, "\(unusable.stderr)")
        #expect(unusable.stderr.contains(bogus), "\(unusable.stderr)")
    }

    @Test func anHTTPSConnectionThatNeverSendsARequestIsClosedByTheIdleTimeout() throws {
        let certificates = try TestCertificates()
        defer { certificates.remove() }
        let hub = try RealHub(guests: 1, serveArguments: ["--tls-cert", certificates.certificateFile, "--tls-key", certificates.keyFile,
                                                          "--idle-timeout-seconds", "1"])
        defer { hub.remove() }
        // A client that connects and sends nothing, not even a TLS hello.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(hub.port).bigEndian)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(connected == 0)
        var limit = timeval(tv_sec: 15, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        let start = ContinuousClock.now
        var byte: UInt8 = 0
        let received = recv(fd, &byte, 1, 0)
        #expect(received == 0, "the hub closed the connection (end of file), not a timeout of this test")
        #expect(ContinuousClock.now - start < .seconds(8), "closed after \(ContinuousClock.now - start)")
    }

    @Test func plainHTTPToAnotherMachineIsRefusedAsAStatusStateUnlessAllowed() throws {
        let directory = TemporaryDirectory("tls-insecure")
        defer { directory.remove() }
        let data = directory.appending("data").path
        // Refused before anything is sent: this address (TEST-NET-1) never answers.
        let refused = try run(kiosk, ["signin", "--hub", "http://192.0.2.77:8080", "--email", "alex@example.org", "--data-dir", data],
                              stdin: "pw\n", timeout: 30)
        #expect(refused.status == 78, "\(refused.stderr)")
        #expect(refused.stderr.contains("Insecure hub address refused"), "\(refused.stderr)")
        #expect(refused.stderr.contains("https://") && refused.stderr.contains("allow_insecure_http = true"), "\(refused.stderr)")

        // The rest needs this machine's own address on a network (a hub listening on all interfaces).
        guard let address = LocalAddress.nonLoopbackIPv4() else { return }
        let hub = try RealHub(guests: 12, serveArguments: ["--host", "0.0.0.0"])
        defer { hub.remove() }
        let remote = "http://\(address):\(hub.port)"
        let allowed = try signIn(hub, url: remote, data: data, ["--allow-insecure-http"])
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(try run(kiosk, ["use", hub.eventID, "--data-dir", data, "--allow-insecure-http"]).status == 0)
        let synced = try run(kiosk, ["sync", "--json", "--data-dir", data, "--allow-insecure-http"])
        #expect(synced.status == 0, "\(synced.stderr)")
        #expect(try (synced.json()["pulled"] as? [String: Any])?["guests"] as? Int == 12)

        // The allowance is kept with the session, as the CA is.
        #expect(try run(kiosk, ["sync", "--data-dir", data]).status == 0)
        // A station signed in before that (its session keeps no trust) stops syncing and says so in its status.
        let sessionFile = URL(fileURLWithPath: data).appendingPathComponent("session.json")
        // Written as a version before sealed sessions did: plain JSON, no trust kept.
        var session = try #require(try SessionFile(database: KioskDatabase.open(dataDirectory: URL(fileURLWithPath: data))).load())
        session.transport = nil
        try JSONEncoder().encode(session).write(to: sessionFile)
        let stopped = try run(kiosk, ["sync", "--data-dir", data])
        #expect(stopped.status == 78, "\(stopped.stderr)")
        #expect(stopped.stderr.contains("Insecure hub address refused"), "\(stopped.stderr)")
        let status = try run(kiosk, ["status", "--json", "--data-dir", data]).json()
        #expect((status["sync"] as? [String: Any])?["state"] as? String == "insecure_hub_refused")

        // The running station says so as its sync state; kiosk.conf's allow_insecure_http lets it sync.
        let refusedStation = try StationProcess(["run", "--headless", "--no-demo", "--printer", "none", "--data-dir", data], headless: true)
        refusedStation.wait(limit: 60) { lines in
            lines.contains { $0.contains(#""event":"health""#) && $0.contains("insecure_hub_refused") }
                && lines.contains { $0.contains(#""event":"sync""#) && $0.contains("insecure_hub_refused") }
        }
        refusedStation.kill9()
        #expect(refusedStation.output.contains { $0.contains(#""event":"sync""#) && $0.contains("insecure_hub_refused") },
                "\(refusedStation.output.suffix(5))")
        // The health line carries the fix for the operator.
        #expect(refusedStation.output.contains { $0.contains(#""event":"health""#) && $0.contains("allow_insecure_http = true") },
                "\(refusedStation.output.suffix(5))")
        let configuration = directory.appending("kiosk.conf").path
        try "allow_insecure_http = true\n".write(toFile: configuration, atomically: true, encoding: .utf8)
        let allowedStation = try StationProcess(["run", "--headless", "--no-demo", "--printer", "none", "--data-dir", data, "--config", configuration],
                                                headless: true)
        allowedStation.wait(limit: 60) { lines in lines.contains { $0.contains(#""event":"sync""#) && $0.contains(#""state":"online""#) } }
        allowedStation.kill9()
        #expect(allowedStation.output.contains { $0.contains(#""event":"sync""#) && $0.contains(#""state":"online""#) },
                "\(allowedStation.output.suffix(5))")
    }
}

/// This machine's first IPv4 address that is not loopback, if it has one.
enum LocalAddress {
    static func nonLoopbackIPv4() -> String? {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return nil }
        defer { freeifaddrs(list) }
        var cursor: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = cursor {
            defer { cursor = entry.pointee.ifa_next }
            guard let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET),
                  entry.pointee.ifa_flags & UInt32(IFF_LOOPBACK) == 0, entry.pointee.ifa_flags & UInt32(IFF_UP) != 0 else { continue }
            var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            guard getnameinfo(address, socklen_t(MemoryLayout<sockaddr_in>.size), &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST) == 0 else { continue }
            return String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return nil
    }
}
