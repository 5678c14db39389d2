import Foundation
import KioskTestSupport
import Testing

/// `kiosk checkin --whole-order` for a family one of whom is already in: every ticket's result
/// is printed with its name, the refused one marked, and the summary says how many were refused.
@Suite(.serialized, .tags(.endToEnd), .endToEnd, .blocking,
       .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/faketime"), "needs Debian's faketime"))
struct WholeOrderCommandTests {
    let kiosk = BuiltProducts.executable("kiosk")

    @Test func aWholeOrderWithOneMemberAlreadyInShowsThatMemberRefusedAndCountsIt() throws {
        let directory = TemporaryDirectory("whole-order")
        defer { directory.remove() }
        let data = try ExportFixtures.importedPretixStation(in: directory)
        try ExportFixtures.checkedInTenMinutesAgo("sec-carla", data: data)

        let order = try run(kiosk, ["checkin", "sec-ana", "--whole-order", "--data-dir", data])
        #expect(order.status == 11, "the first refusal's status: \(order.stdout) \(order.stderr)")
        let lines = order.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "Order FAM01: 4 tickets, 3 may go in, 1 refused", "\(lines)")
        #expect(lines.contains { $0.hasPrefix("✗ Carla Lima: Already checked in") }, "\(lines)")
        #expect(lines.filter { $0.hasPrefix("✓ ") }.count == 3, "\(lines)")

        // Again at once: the three just let in are the same admission (within the window), Carla is refused.
        let json = try run(kiosk, ["checkin", "sec-ana", "--whole-order", "--data-dir", data, "--json"]).json()
        #expect(json["refused"] as? Int == 1 && json["admitted"] as? Int == 3, "\(json)")
    }
}
