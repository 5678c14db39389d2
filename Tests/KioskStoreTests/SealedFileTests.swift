import Foundation
import KioskTestSupport
import Testing
@testable import KioskStore

/// A secret kept beside the store (the hub session, the pretix connection): sealed, 0600, and
/// said plainly when it cannot be read.
@Suite("Sealed files beside the store")
struct SealedFileTests {
    @Test func aSealedFileIsOnlyTheOwnersOpensOnlyWithItsKeyAndSaysWhenDamaged() throws {
        let directory = TemporaryDirectory("sealed-file")
        defer { directory.remove() }
        let database = try KioskDatabase.open(dataDirectory: directory.appending("station"))
        let file = SealedFile(database.dataDirectory.appendingPathComponent("secret.json"), sealer: database)
        #expect(try file.read() == nil && !file.exists)

        let secret = Data(#"{"token":"device-token-123"}"#.utf8)
        let previous = umask(0)
        defer { umask(previous) }
        try file.write(secret)
        let mode = try FileManager.default.attributesOfItem(atPath: file.url.path)[.posixPermissions] as? Int
        #expect(mode == 0o600, "owner only whatever the umask: \(String(mode ?? 0, radix: 8))")
        let onDisk = try Data(contentsOf: file.url)
        #expect(onDisk.range(of: Data("device-token-123".utf8)) == nil, "sealed on disk")
        #expect(try file.read() == secret)
        #expect(!FileManager.default.fileExists(atPath: file.url.path + ".tmp"))

        // Another station's key does not open it, and the reason says what happened.
        let other = try KioskDatabase.open(dataDirectory: directory.appending("other"))
        #expect(throws: SealedFileError.unreadable("this station's key does not open it: the file is damaged or was not written by this station")) {
            try SealedFile(file.url, sealer: other).read()
        }
        try Data("garbage".utf8).write(to: file.url)
        #expect(throws: SealedFileError.self) { try file.read() }
        file.remove()
        #expect(!file.exists)
    }
}
