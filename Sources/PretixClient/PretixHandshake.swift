import CheckInCore
import Foundation

/// What pretix shows when an organizer creates a device: its server and a one-time
/// initialization token, as the QR code `{"handshake_version": 1, "url": …, "token": …}` or
/// typed by hand.
public struct PretixHandshake: Sendable, Hashable {
    /// The pretix server (`https://pretix.eu`, or a path below a host).
    public var server: URL
    /// The single-use initialization token.
    public var token: String

    /// The handshake version this station reads; a higher one asks for an update.
    public static let supportedVersion = 1
    /// The longest handshake read: a QR code holds far less, anything longer is not one.
    public static let maximumLength = 2_048

    /// From a typed address and token (the version does not apply).
    /// - Throws: ``PretixHandshakeError``.
    public init(server: String, token: String) throws(PretixHandshakeError) {
        self.server = try Self.serverURL(server)
        self.token = try Self.checkedToken(token)
    }

    /// Reads a scanned handshake QR code.
    /// - Throws: ``PretixHandshakeError``: not a handshake, a version above 1, a missing field,
    ///   an address that is not http(s), a pretixSCAN Proxy token.
    public init(scanned text: String) throws(PretixHandshakeError) {
        guard text.utf8.count <= Self.maximumLength,
              let code = try? JSONDecoder().decode(Code.self, from: Data(text.utf8)) else { throw .notAHandshake }
        guard let version = code.handshakeVersion else { throw .missingField("handshake_version") }
        guard version <= Self.supportedVersion else { throw .unsupportedVersion(version) }
        guard let url = code.url else { throw .missingField("url") }
        guard let token = code.token else { throw .missingField("token") }
        try self.init(server: url, token: token)
    }

    /// The QR code's JSON; a field of the wrong type makes it no handshake at all.
    private struct Code: Decodable {
        var handshakeVersion: Int?
        var url: String?
        var token: String?

        enum CodingKeys: String, CodingKey {
            case handshakeVersion = "handshake_version", url, token
        }
    }

    static func serverURL(_ text: String) throws(PretixHandshakeError) -> URL {
        do {
            return try PretixClient.parseServerURL(text)
        } catch {
            throw .notAServerURL(Sanitized.text(String(text.prefix(200))))
        }
    }

    static func checkedToken(_ raw: String) throws(PretixHandshakeError) -> String {
        let token = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !token.isEmpty else { throw .missingField("token") }
        // pretixSCAN Proxy hands out tokens of its own: this station talks to pretix itself.
        guard !token.hasPrefix("proxy=") else { throw .proxyToken }
        guard token.count <= 256, token.unicodeScalars.allSatisfy({ $0.isASCII && !$0.properties.isWhitespace && $0.value >= 0x21 && $0.value < 0x7F })
        else { throw .notAToken }
        return token
    }
}

/// Why a handshake cannot be used, saying what to do.
public enum PretixHandshakeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not pretix's device QR code (another code, garbage).
    case notAHandshake
    /// A newer pretix's handshake: this station must be updated first.
    case unsupportedVersion(Int)
    case missingField(String)
    case notAServerURL(String)
    /// The token is not one pretix issues (spaces, control characters, far too long).
    case notAToken
    /// A pretixSCAN Proxy's token.
    case proxyToken

    public var description: String {
        switch self {
        case .notAHandshake:
            "This is not a pretix device code: in pretix, open Organizer → Devices, create (or reset) a device and scan the QR code it shows."
        case .unsupportedVersion(let version):
            "This pretix device code has handshake version \(version); this station reads version \(PretixHandshake.supportedVersion): update the station, or enter pretix's address and the token by hand."
        case .missingField(let field):
            "The pretix device code has no \(field): scan the code pretix shows for the device again, or enter the address and token by hand."
        case .notAServerURL(let url):
            "\(url) is not a pretix address: use https://host[/path], as pretix shows it for the device."
        case .notAToken:
            "That is not a pretix device token: copy the token pretix shows for the device (letters and digits)."
        case .proxyToken:
            "This is a pretixSCAN Proxy code: this station talks to pretix itself; create a device in pretix and use its code."
        }
    }
}
