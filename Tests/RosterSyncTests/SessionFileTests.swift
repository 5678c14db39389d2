import CheckInCore
import Foundation
import KioskStore
import KioskTestSupport
import RosterSync
import Testing

/// The station's sealed session file reads back whatever bytes its seal starts with.
@Suite struct SessionFileTests {
    /// A seal whose output starts with `{`, as a real one's random nonce does one time in 256.
    struct BraceFirstSealer: SecretSealer {
        func sealSecret(_ plaintext: Data) -> Data { Data("{".utf8) + Data(plaintext.reversed()) }
        func openSecret(_ sealed: Data) throws(StorageKeyError) -> Data { Data(sealed.dropFirst().reversed()) }
    }

    @Test func aSealedSessionThatHappensToStartWithABraceIsNotMistakenForAnOldPlainOne() throws {
        let directory = TemporaryDirectory("session-file")
        defer { directory.remove() }
        let file = SessionFile(dataDirectory: directory.url, sealer: BraceFirstSealer())
        let session = StationSession(hubURL: "https://hub.example.org", accessToken: "a", accessExpiresAt: Timestamp(milliseconds: 1),
                                     refreshToken: "r", refreshExpiresAt: Timestamp(milliseconds: 2), sessionID: "s", staffEmail: "e@x.org",
                                     staffName: "Alex", staffRole: "staff")
        try file.save(session)
        #expect(try Data(contentsOf: file.url).first == UInt8(ascii: "{"))
        #expect(try file.load() == session)
    }
}
