import CheckInCore
import Foundation
import KioskStore
import PretixClient

/// `kiosk bench pretix-online`: what an online-first scan costs at the door, against pretix's
/// own redeem time measured in the same run. The station's side is the whole feedback path of a
/// scan (pretix asked through ``PretixDoor``, then the decision recorded with its badge-free
/// check-in in one transaction); the baseline is a plain `checkinrpc/redeem` of another ticket on
/// the same list by the same device. Scans alternate between the sides, each ticket used once,
/// so a warming server favours neither.
public enum PretixOnlineBenchmark {
    public struct Figures: Sendable {
        /// Milliseconds per scan.
        public var baseline: [Double]
        public var station: [Double]
        /// Scans pretix admitted on each side (every ticket is fresh: all of them, unless the list refuses some).
        public var baselineAdmitted: Int
        public var stationAdmitted: Int
    }

    /// - Parameters:
    ///   - token: a new device's initialization token (the benchmark becomes that device).
    ///   - scans: scans per side; the event needs twice as many unused paid tickets on the list.
    ///   - root: a scratch folder for the station's store.
    public static func run(server: String, token: String, event: String, list: Int?, scans: Int, root: URL,
                           identity: PretixDeviceIdentity) async throws -> Figures {
        let url = try PretixClient.parseServerURL(server)
        let device = try await PretixClient(server: url).initialize(token: token, identity: identity)
        let client = try PretixClient(server: url, device: device, timeout: .seconds(30))
        let directory = root.appendingPathComponent("station")
        let database = try KioskDatabase.open(dataDirectory: directory, key: .besideThrowawayStore(directory))
        var link = try await PretixSync.choose(client: client, server: server, device: device, event: event, list: list, database: database,
                                               identity: identity, mode: .onlineFirst)
        link.onlineBudgetMilliseconds = 10_000
        _ = try await PretixSync(database: database, link: link).pull()
        let door = PretixDoor(database: database, link: link)

        // Fresh tickets for both sides: paid orders' positions nobody has scanned.
        var tickets: [String] = []
        var next: PretixNextPage?
        repeat {
            let page = try await client.ordersPage(event: event, cursor: .fresh, next: next)
            for order in page.orders where order.status == .paid {
                tickets += order.positions.filter { $0.checkins.isEmpty && !$0.canceled }.map(\.secret)
            }
            next = page.next
        } while next != nil && tickets.count < 2 * scans
        guard tickets.count >= 2 * scans else {
            throw PretixSyncError.pretix(.malformed("the event has \(tickets.count) unused paid tickets; \(2 * scans) are needed"))
        }

        var figures = Figures(baseline: [], station: [], baselineAdmitted: 0, stationAdmitted: 0)
        for index in 0..<scans {
            let plain = PretixScan(secret: tickets[2 * index], nonce: .random(), datetime: PretixTime(.now()))
            let start = ContinuousClock.now
            let answer = try await client.redeem(plain, lists: [link.list], questionsSupported: false)
            figures.baseline.append((ContinuousClock.now - start).seconds * 1_000)
            if case .ok = answer { figures.baselineAdmitted += 1 }

            let stationStart = ContinuousClock.now
            let request = await door.asked(CheckInRequest(rawCode: tickets[2 * index + 1], source: .scanner))
            let result = try await database.desk.checkIn(request)
            figures.station.append((ContinuousClock.now - stationStart).seconds * 1_000)
            if result.decision == .admitted && request.shopAnswer == .admitted { figures.stationAdmitted += 1 }
        }
        return figures
    }
}
