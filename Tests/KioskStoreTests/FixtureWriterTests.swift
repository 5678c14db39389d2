import Foundation
import Testing

@Suite("Fixture databases")
struct FixtureWriterTests {
    @Test("write fixture databases for new schema versions",
          .enabled(if: ProcessInfo.processInfo.environment["KIOSK_WRITE_FIXTURES"] != nil))
    func writeFixtures() throws {
        try StoreFixtures.writeMissing()
    }
}
