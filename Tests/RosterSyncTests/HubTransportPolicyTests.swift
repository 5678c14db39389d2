import Foundation
import HTTPTransport
import RosterSync
import Testing

/// Which hub addresses a station refuses before sending anything, and its CA file's errors, in
/// the hub's words (the address rule itself: `TransportPolicyTests` in HTTPTransportTests).
@Suite struct HubTransportPolicyTests {
    @Test func theRefusalSaysToUseHTTPSOrAllowInsecureHTTP() throws {
        let error = SyncError.insecureHubURL("http://192.0.2.7:8080")
        #expect(error.description.contains("Insecure hub address refused"))
        #expect(error.description.contains("https://"))
        #expect(error.description.contains("allow_insecure_http = true"))
    }

    @Test func anInsecureHubClientIsNeverBuilt() throws {
        let remote = try HubClient.parseHubURL("http://192.0.2.7:8080")
        #expect(throws: SyncError.insecureHubURL(remote.absoluteString)) { try HubClient(baseURL: remote) }
        #expect(throws: Never.self) { try HubClient(baseURL: remote, policy: TransportPolicy(allowInsecureHTTP: true)) }
        #expect(throws: Never.self) { try HubClient(baseURL: URL(string: "http://127.0.0.1:8080")!) }
    }

    @Test func aMissingOrBogusCAFileIsAnErrorNamingIt() throws {
        let hub = URL(string: "https://127.0.0.1:8443")!
        #expect(throws: SyncError.caFileUnreadable(path: "/nonexistent/ca.pem", reason: "no such readable file")) {
            try HubClient(baseURL: hub, policy: TransportPolicy(caFile: "/nonexistent/ca.pem"))
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bogus-ca-\(UUID().uuidString).pem")
        try "not a certificate\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        // An https:// client with it fails at construction, not at the first request.
        #expect(throws: SyncError.caFileUnreadable(path: file.standardizedFileURL.path, reason: "not a PEM certificate file")) {
            try HubClient(baseURL: hub, policy: TransportPolicy(caFile: file.path))
        }
    }
}
