import CheckInCore
import Foundation
import KioskTestSupport
import Testing

/// One version for the whole product: both programs say the constant the stations report.
@Suite(.tags(.endToEnd), .endToEnd, .blocking) struct ProductVersionTests {
    @Test(arguments: ["kiosk", "checkin-hub"]) func bothProgramsPrintTheProductVersion(program: String) throws {
        let result = try run(BuiltProducts.executable(program), ["--version"], timeout: 30)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == ProductVersion.current)
    }
}
