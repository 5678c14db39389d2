import AsyncHTTPClient
import Foundation
import HTTPTransport
import KioskTestSupport
import NIOSSL
import Testing

/// Transport failures in the operator's words, the other side named as the client calls it.
@Suite struct TransportFailureTests {
    @Test func aCertificateForAnotherAddressIsUntrustedNamingTheServer() {
        #expect(TransportFailure.untrustedReason(NIOSSLExtraError.failedToValidateHostname, server: "hub")
            == "it is not issued for this hub's address")
        #expect(TransportFailure.untrustedReason(NIOSSLExtraError.failedToValidateHostname) == "it is not issued for this server's address")
    }

    @Test func aHandshakeWithAServerNotSpeakingTLSAsksWhetherItServesHTTPS() {
        #expect(TransportFailure.describe(NIOSSLError.handshakeFailed(.sslError([])), server: "hub")
            == "TLS handshake failed (is the hub serving HTTPS on this port?)")
    }

    /// A real server that takes longer to answer than the request may.
    @Test func aServerTooSlowToAnswerTimedOut() async throws {
        let server = try ScriptedHTTPServer { _ in .init(status: 200, body: Data("late".utf8), delay: 5) }
        defer { server.stop() }
        do {
            _ = try await BoundedDownload(limit: 1_024).fetch(HTTPClientRequest(url: server.url + "/"), on: StationHTTPClient.shared,
                                                              timeout: .milliseconds(300))
            Issue.record("a late answer was taken")
        } catch {
            #expect(TransportFailure.untrustedReason(error) == nil)
            #expect(TransportFailure.describe(error) == "timed out")
        }
    }

    @Test func anAnswerLargerThanTheLimitIsRefused() async throws {
        let server = try ScriptedHTTPServer { _ in .init(status: 200, body: Data(repeating: 0x41, count: 4_096)) }
        defer { server.stop() }
        await #expect(throws: BoundedDownload.TooLarge.self) {
            _ = try await BoundedDownload(limit: 1_024).fetch(HTTPClientRequest(url: server.url + "/"), on: StationHTTPClient.shared,
                                                              timeout: .seconds(10))
        }
    }

    /// A real request to a loopback port nobody listens on.
    @Test func aServerThatIsNotThereRefusedTheConnection() async throws {
        let port = RealHub.freePort()
        let request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/")
        do {
            _ = try await BoundedDownload(limit: 1_024).fetch(request, on: StationHTTPClient.shared, timeout: .seconds(10))
            Issue.record("a closed port answered")
        } catch {
            #expect(TransportFailure.untrustedReason(error) == nil)
            #expect(TransportFailure.describe(error, server: "hub") == "connection refused")
        }
    }
}
