import Foundation
import KioskTestSupport
import PretixClient

/// The real pretix the client's end-to-end suites share (one start, about 10 s, instead of one
/// per test): seeded with the conference, the festival and 120 bulk orders. Tests that share it
/// never interfere: each initializes a device of its own and scans tickets no other test scans.
enum SharedPretix {
    static let server: Result<PretixServer, any Error> = Result { try PretixServer(orders: 120) }

    /// What the station tells pretix about itself in these tests.
    static let identity = PretixDeviceIdentity(hardwareBrand: "Test", hardwareModel: "Door rig", osName: "Linux", osVersion: "Debian 12",
                                               softwareVersion: "0.0-test")

    /// A client for a new device of the organizer's, initialized as the station does it.
    static func newDevice(_ name: String, profile: String = "pretixscan") async throws -> (PretixClient, PretixDevice) {
        let server = try server.get()
        let created = try await server.addDevice(name: name, securityProfile: profile)
        let url = try PretixClient.parseServerURL(server.url)
        let device = try await PretixClient(server: url).initialize(token: created.initializationToken, identity: identity)
        return (try PretixClient(server: url, device: device), device)
    }
}

extension PretixClient {
    /// Every page of event `event`'s orders from `cursor` on: the orders, the cursor after the
    /// last page, and how many pages it took.
    func downloadOrders(event: String, from cursor: PretixOrderCursor = .fresh) async throws -> (orders: [PretixOrder], cursor: PretixOrderCursor, pages: Int) {
        var orders: [PretixOrder] = []
        var cursor = cursor
        var next: PretixNextPage?
        var pages = 0
        repeat {
            let page = try await ordersPage(event: event, cursor: cursor, next: next)
            orders += page.orders
            (cursor, next) = (page.cursor, page.next)
            pages += 1
        } while next != nil
        return (orders, cursor, pages)
    }
}
