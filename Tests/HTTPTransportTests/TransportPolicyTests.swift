import Foundation
import HTTPTransport
import Testing

/// Which server addresses a station refuses before sending anything, and its CA file's errors
/// (the hub client and the pretix client both take this policy).
@Suite struct TransportPolicyTests {
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
        let policy = TransportPolicy(allowInsecureHTTP: allowInsecure)
        let parsed = try #require(URL(string: url))
        if allowed {
            #expect(throws: Never.self) { try policy.check(parsed) }
        } else {
            #expect(throws: TransportRefusal.insecureURL(parsed.absoluteString)) { try policy.check(parsed) }
        }
    }

    @Test func aMissingOrBogusCAFileIsARefusalNamingIt() throws {
        let missing = TransportPolicy(caFile: "/nonexistent/ca.pem")
        #expect(throws: TransportRefusal.caFileUnreadable(path: "/nonexistent/ca.pem", reason: "no such readable file")) {
            try missing.tlsConfiguration()
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bogus-ca-\(UUID().uuidString).pem")
        try "not a certificate\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(throws: TransportRefusal.caFileUnreadable(path: file.standardizedFileURL.path, reason: "not a PEM certificate file")) {
            try TransportPolicy(caFile: file.path).tlsConfiguration()
        }
    }

    @Test func aPolicyThatSaysNothingGivesWayToTheKeptOne() {
        let kept = TransportPolicy(caFile: "/etc/kiosk/ca.pem")
        #expect(TransportPolicy().orKept(kept) == kept)
        #expect(TransportPolicy().orKept(nil) == TransportPolicy())
        let given = TransportPolicy(allowInsecureHTTP: true)
        #expect(given.orKept(kept) == given)
    }

    /// The coded form is what stations kept with their hub session before the policy moved here.
    @Test func itDecodesThePolicyKeptBySessionsBeforeIt() throws {
        let kept = Data(#"{"caFile":"/etc/kiosk/ca.pem","allowInsecureHTTP":true}"#.utf8)
        #expect(try JSONDecoder().decode(TransportPolicy.self, from: kept) == TransportPolicy(caFile: "/etc/kiosk/ca.pem", allowInsecureHTTP: true))
    }
}
