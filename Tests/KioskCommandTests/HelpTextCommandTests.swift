import Foundation
import KioskTestSupport
import Testing

/// What a newcomer reads first: `kiosk --help` starts with `run` and says to start there, and
/// `checkin-hub serve --help` says the organizers' dashboard is served too.
@Suite(.serialized, .tags(.endToEnd), .endToEnd, .blocking)
struct HelpTextCommandTests {
    @Test func kioskHelpListsRunFirstAsWhereToStart() throws {
        let help = try run(BuiltProducts.executable("kiosk"), ["--help"])
        #expect(help.status == 0)
        let subcommands = help.stdout.components(separatedBy: "SUBCOMMANDS:").last ?? ""
        let first = subcommands.split(separator: "\n").first { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? ""
        #expect(first.trimmingCharacters(in: .whitespaces).hasPrefix("run "), "\(subcommands)")
        #expect(first.lowercased().contains("start here"), "\(first)")
    }

    @Test(.enabled(if: RealHub.available, "needs the checkin-hub server"))
    func hubServeHelpNamesTheDashboard() throws {
        let help = try run(RealHub.executable, ["serve", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("dashboard"), "\(help.stdout)")
        #expect(help.stdout.contains("/signin"), "where to open it: \(help.stdout)")
    }
}
