import CheckInCore
import Foundation
import KioskTestSupport
import PretixClient
import Testing

/// The door's own decision, made from what the station downloaded, against pretix's online
/// decision for the same ticket at the same moment: for every seeded ticket, on every list of
/// the plain event and the signed event's list without rules; then, where lists allow
/// re-entry, a second entry, exits and entries after exit. In ``PretixDeviceTests``: its
/// server, serialized with its tests.
extension PretixDeviceTests {
    /// One scan compared: which event, list and ticket, and which way.
    struct Case: CustomStringConvertible {
        var event: String
        var list: PretixFacts.CheckInList
        var secret: String
        var what: String
        var description: String { "\(event), \(list.name), \(what)" }
    }

    @Test func everySeededTicketIsDecidedOfflineAsPretixDecidesOnline() async throws {
        let server = try server
        let (pretix, device) = try await SharedPretix.newDevice("Comparer")
        let online = server.device(token: device.apiToken)
        let organizer = server.facts.organizer.slug
        let conference = try server.facts.conference
        let festival = try server.facts.festival
        var copies = [conference.slug: try await PretixOfflineCopy.download(conference.slug, with: pretix),
                      festival.slug: try await PretixOfflineCopy.download(festival.slug, with: pretix)]

        var cases: [Case] = []
        for list in conference.checkinLists {
            cases += conference.positions.map { Case(event: conference.slug, list: list, secret: $0.secret, what: "\($0.scenario) \($0.attendeeName)") }
        }
        let allEntrances = try festival.list("All entrances")
        cases += festival.positions.map { Case(event: festival.slug, list: allEntrances, secret: $0.secret, what: "\($0.scenario) \($0.attendeeName)") }
        let canceledBefore = try #require(try festival.position(.canceled).revokedSecrets.first)
        cases.append(Case(event: festival.slug, list: allEntrances, secret: canceledBefore, what: "a canceled ticket's old secret"))
        cases.append(Case(event: conference.slug, list: try conference.list("Main entrance"), secret: "no-such-ticket", what: "an unknown code"))

        /// Decides each case offline, then asks pretix; returns the disagreements.
        func compare(_ cases: [Case], type: String, round: String) async throws -> [String] {
            var disagreements: [String] = []
            for scan in cases {
                let offline = copies[scan.event]!.decide(scan.secret, list: scan.list.id, direction: type == "exit" ? .exit : .entry)
                let decided = try await online.redeem(organizer: organizer, secret: scan.secret, list: scan.list.id, type: type)
                if offline.pretixOutcome != decided.outcome {
                    disagreements.append("\(round) \(type), \(scan): offline \(offline.pretixOutcome) (\(offline)), pretix \(decided)")
                }
            }
            return disagreements
        }
        func refresh() async throws {
            for event in [conference.slug, festival.slug] { try await copies[event]!.refresh(event, with: pretix) }
        }

        // Every list once; the movements' rules then on the lists that allow re-entry (the
        // others add nothing the movements decide differently, and each scan costs pretix time).
        var disagreements = try await compare(cases, type: "entry", round: "first")
        // pretix's admissions come back with the orders' delta: the second entry is refused alike.
        try await refresh()
        let reentering = cases.filter { $0.list.name == "Main entrance" || $0.list.name == "All entrances" }
        disagreements += try await compare(reentering, type: "entry", round: "second")
        disagreements += try await compare(reentering, type: "exit", round: "first")
        try await refresh()
        disagreements += try await compare(reentering, type: "entry", round: "after exit")
        let scans = cases.count + 3 * reentering.count
        #expect(disagreements.isEmpty, "\(disagreements.count) of \(scans) scans:\n\(disagreements.joined(separator: "\n"))")

        // Where the list includes pending orders, staff may admit an unpaid ticket: pretix agrees.
        let pending = try conference.position(.pending).secret
        let main = try conference.list("Main entrance").id
        let anyway = copies[conference.slug]!.decide(pending, list: main, admitUnpaid: true)
        let pretixAnyway = try await pretix.redeem(PretixScan(secret: pending, nonce: .random(), datetime: PretixTime(.now()), ignoreUnpaid: true),
                                                   lists: [main], questionsSupported: true)
        #expect(anyway == .admitted && pretixAnyway.outcome == "ok")

        // Lists with rules are pretix's to decide, for now.
        let ruled = try festival.list("At most 2 entries").id
        #expect(copies[festival.slug]!.decide(festival.positions(.paid)[0].secret, list: ruled) == .refused(.needsOnline(.rules)))
    }
}
