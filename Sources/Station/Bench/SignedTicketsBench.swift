import CheckInCore
import Foundation
import KioskStore
import Logging
import PretixClient
import PretixSync
import SignedTickets

/// The door benchmark's signed-ticket arrivals: a station linked to a pretix list (never
/// reached: the door decides locally) whose event signs its tickets with a key made for the run.
/// Half the attendees are in the roster, half hold a signed ticket the station has no order for
/// and verifies at the door; both kinds arrive interleaved, so their figures come from the same run.
enum SignedTicketsBench {
    struct Prepared {
        var door: PretixSync
        var codes: [String]
        var signed: Set<String>
    }

    static func prepare(_ database: KioskDatabase, attendees: Int, logger: Logger) async throws -> Prepared {
        let device = PretixDevice(organizer: "bench", deviceID: 1, uniqueSerial: "BENCH", apiToken: "bench", name: "Bench door", gate: nil,
                                  securityProfile: .pretixscan)
        // Port 9 (discard) on loopback: nothing there, and nothing at this list is pretix's alone to decide.
        let link = PretixLink(server: "http://127.0.0.1:9", device: device, event: "bench", eventName: "Bench", list: 1, listName: "Bench")
        try PretixLinkFile<PretixLink>(database: database).save(link)
        let issuer = SignedTicketIssuer()
        try PretixLinkFile<PretixSignedTickets>(database: database).save(PretixSignedTickets(keys: [issuer.listedKey], allProducts: true))
        // As `kiosk pretix connect` sets it: pretix's secrets (signed ones are base64) compare as scanned.
        try await database.setSetting(.caseInsensitiveCodes, "0")
        try await database.selectSyncEvent(id: link.eventID, name: "Bench", toleranceWindowMilliseconds: nil, endsAt: nil)
        let dayPass = PretixRoster.accessTypeID(item: 1)
        let rosterCount = (attendees + 1) / 2
        let guests = (0..<rosterCount).map { index in
            Guest(id: "BENCH-\(index)", code: TicketCode(stored: "BENCH-\(index)"), name: "Attendee \(index)", company: "Bench Co", accessTypeID: dayPass,
                  facts: TicketFacts(orderCode: "ORDER\(index)"))
        }
        try await database.applyRoster([RosterDelta(accessTypes: [AccessType(id: dayPass, name: "Day pass")], guests: guests, nextCursor: "")],
                                       eventID: link.eventID, complete: true)
        var codes: [String] = []
        var signed: Set<String> = []
        for index in 0..<attendees {
            if index % 2 == 0 {
                codes.append("BENCH-\(index / 2)")
            } else {
                let code = try issuer.code(for: SignedTicket(seed: "bench\(index)", item: 1))
                codes.append(code)
                signed.insert(code)
            }
        }
        return Prepared(door: PretixSync(database: database, link: link, logger: logger), codes: codes, signed: signed)
    }
}
