import Foundation
import RosterSync
import Testing

/// Which hub addresses a station refuses before sending anything, and its CA file's errors.
@Suite struct HubTransportPolicyTests {
    @Test(arguments: [
        ("http://127.0.0.1:8080", false, true),
        ("http://127.8.9.10", false, true),
        ("http://localhost:8080", false, true),
        ("http://LOCALHOST", false, true),
        ("http://[::1]:8080", false, true),
        ("https://hub.example.org", false, true),
        ("https://192.0.2.7:8443", false, true),
        ("http://192.0.2.7:8080", false, false),
        ("http://hub.example.org", false, false),
        ("http://127.0.0.1.example.org", false, false),
        ("http://[fd00::2]:8080", false, false),
        ("http://192.0.2.7:8080", true, true),
        ("http://hub.example.org", true, true),
    ])
    func plainHTTPIsAllowedOnlyToLoopbackUnlessTheOperatorAllowsIt(url: String, allowInsecure: Bool, allowed: Bool) throws {
        let policy = HubTransportPolicy(allowInsecureHTTP: allowInsecure)
        let parsed = try HubClient.parseHubURL(url)
        if allowed {
            #expect(throws: Never.self) { try policy.check(parsed) }
        } else {
            #expect(throws: SyncError.insecureHubURL(parsed.absoluteString)) { try policy.check(parsed) }
        }
    }

    @Test func theRefusalSaysToUseHTTPSOrAllowInsecureHTTP() throws {
        let error = SyncError.insecureHubURL("http://192.0.2.7:8080")
        #expect(error.description.contains("Insecure hub address refused"))
        #expect(error.description.contains("https://"))
        #expect(error.description.contains("allow_insecure_http = true"))
    }

    @Test func anInsecureHubClientIsNeverBuilt() {
        #expect(throws: SyncError.self) { try HubClient(baseURL: URL(string: "http://192.0.2.7:8080")!) }
        #expect(throws: Never.self) { try HubClient(baseURL: URL(string: "http://127.0.0.1:8080")!) }
    }

    @Test func aMissingOrBogusCAFileIsAnErrorNamingIt() throws {
        let missing = HubTransportPolicy(caFile: "/nonexistent/ca.pem")
        #expect(throws: SyncError.caFileUnreadable(path: "/nonexistent/ca.pem", reason: "no such readable file")) { try missing.tlsConfiguration() }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bogus-ca-\(UUID().uuidString).pem")
        try "not a certificate\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(throws: SyncError.self) { try HubTransportPolicy(caFile: file.path).tlsConfiguration() }
        // An https:// client with it fails at construction, not at the first request.
        #expect(throws: SyncError.self) {
            try HubClient(baseURL: URL(string: "https://127.0.0.1:8443")!, policy: HubTransportPolicy(caFile: file.path))
        }
    }
}
