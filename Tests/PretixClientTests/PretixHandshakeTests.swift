import Foundation
import PretixClient
import Testing

@Suite struct PretixHandshakeTests {
    @Test func aHandshakeCodeGivesTheServerAndToken() throws {
        let handshake = try PretixHandshake(scanned: #"{"handshake_version": 1, "url": "https://pretix.eu/", "token": "kpp4jn8g2ynzonp6"}"#)
        #expect(handshake.server.absoluteString == "https://pretix.eu")
        #expect(handshake.token == "kpp4jn8g2ynzonp6")
        let below = try PretixHandshake(scanned: #"{"handshake_version": 1, "url": "https://tickets.example.org/pretix/api/v1/", "token": "abc"}"#)
        #expect(below.server.absoluteString == "https://tickets.example.org/pretix", "a path below the host is kept, the API's own part dropped")
    }

    @Test func typedByHandTheVersionDoesNotApply() throws {
        let handshake = try PretixHandshake(server: "  http://127.0.0.1:8000 ", token: " kpp4jn8g2ynzonp6\n")
        #expect(handshake.server.absoluteString == "http://127.0.0.1:8000" && handshake.token == "kpp4jn8g2ynzonp6")
    }

    @Test(arguments: [
        (#"{"handshake_version": 2, "url": "https://pretix.eu", "token": "abc"}"#, PretixHandshakeError.unsupportedVersion(2)),
        (#"{"url": "https://pretix.eu", "token": "abc"}"#, .missingField("handshake_version")),
        (#"{"handshake_version": 1, "token": "abc"}"#, .missingField("url")),
        (#"{"handshake_version": 1, "url": "https://pretix.eu"}"#, .missingField("token")),
        (#"{"handshake_version": 1, "url": "https://pretix.eu", "token": "  "}"#, .missingField("token")),
        (#"{"handshake_version": "1", "url": "https://pretix.eu", "token": "abc"}"#, .notAHandshake),
        (#"{"handshake_version": 1, "url": "ftp://pretix.eu", "token": "abc"}"#, .notAServerURL("ftp://pretix.eu")),
        (#"{"handshake_version": 1, "url": "https://user:pw@pretix.eu", "token": "abc"}"#, .notAServerURL("https://user:pw@pretix.eu")),
        (#"{"handshake_version": 1, "url": "https://pretix.eu", "token": "proxy=abc"}"#, .proxyToken),
        (#"{"handshake_version": 1, "url": "https://pretix.eu", "token": "a b"}"#, .notAToken),
        (#"{"handshake_version": 1, "url": "https://pretix.eu", "token": "\u001b[2J"}"#, .notAToken),
        ("ABC123", .notAHandshake),
        ("[1, 2]", .notAHandshake),
    ])
    func aCodeThatIsNoUsableHandshakeIsRefusedSayingWhatToDo(_ text: String, expected: PretixHandshakeError) {
        #expect(throws: expected) { try PretixHandshake(scanned: text) }
    }

    @Test func aHugeCodeIsNotReadAtAll() {
        let huge = #"{"handshake_version": 1, "url": "https://pretix.eu", "token": ""# + String(repeating: "a", count: 5_000) + #""}"#
        #expect(throws: PretixHandshakeError.notAHandshake) { try PretixHandshake(scanned: huge) }
    }

    @Test func everyRefusalSaysWhatToDoWithoutTerminalEscapes() {
        let errors: [PretixHandshakeError] = [.notAHandshake, .unsupportedVersion(2), .missingField("url"), .notAServerURL("x"), .notAToken, .proxyToken]
        for error in errors {
            #expect(error.description.count > 40 && !error.description.contains("\u{1b}"))
        }
        #expect(PretixHandshakeError.unsupportedVersion(2).description.contains("update the station"))
    }
}
