import AsyncHTTPClient
import Foundation
import HTTPTransport
import KioskTestSupport
import NIOSSL
import Testing

/// Transport failures in the operator's words, the other side named as the client calls it, and
/// the bounded download's refusals, against real loopback servers.
@Suite struct TransportFailureTests {
    @Test func aCertificateForAnotherAddressIsUntrustedNamingTheServer() {
        #expect(TransportFailure(NIOSSLExtraError.failedToValidateHostname, server: "hub") == .untrusted("it is not issued for this hub's address"))
        #expect(TransportFailure(NIOSSLExtraError.failedToValidateHostname) == .untrusted("it is not issued for this server's address"))
    }

    @Test func aHandshakeWithAServerNotSpeakingTLSAsksWhetherItServesHTTPS() {
        #expect(TransportFailure(NIOSSLError.handshakeFailed(.sslError([])), server: "hub")
            == .unreachable("TLS handshake failed (is the hub serving HTTPS on this port?)"))
    }

    /// A real request to a loopback port nobody listens on.
    @Test func aServerThatIsNotThereRefusedTheConnection() async throws {
        let request = HTTPClientRequest(url: "http://127.0.0.1:\(RealHub.freePort())/")
        await #expect(throws: TransportFailure.unreachable("connection refused")) {
            _ = try await BoundedDownload(limit: 1_024).exchange(request, timeout: .seconds(10), server: "hub")
        }
    }

    /// A real server that takes longer to answer than the request may: far longer, so that a
    /// loaded machine that runs the client's timer late still runs it before the answer comes.
    @Test func aServerTooSlowToAnswerTimedOut() async throws {
        let server = try ScriptedHTTPServer { _ in .init(status: 200, body: Data("late".utf8), delay: 300) }
        defer { server.stop() }
        await #expect(throws: TransportFailure.unreachable("timed out")) {
            _ = try await BoundedDownload(limit: 1_024).exchange(HTTPClientRequest(url: server.url + "/"), timeout: .milliseconds(300))
        }
    }

    @Test func anAnswerLargerThanTheLimitIsRefused() async throws {
        let server = try ScriptedHTTPServer { _ in .init(status: 200, body: Data(repeating: 0x41, count: 4_096)) }
        defer { server.stop() }
        await #expect(throws: TransportFailure.tooLarge(limit: 1_024)) {
            _ = try await BoundedDownload(limit: 1_024).exchange(HTTPClientRequest(url: server.url + "/"), timeout: .seconds(10))
        }
    }
}
