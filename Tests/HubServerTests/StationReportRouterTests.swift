import CheckInCore
import CheckInHub
import Foundation
import HTTPTypes
import HubAPI
import HubServer
import Hummingbird
import HummingbirdTesting
import KioskTestSupport
import Logging
import NIOCore
import Testing

/// The station report routes in process: strict validation like every upload, a station reports
/// only as itself, and the list marks stations silent past the configured time.
@Suite(.hangGuard) struct StationReportRouterTests {
    static let valid = StationReport(name: "Door A", version: ProductVersion.current, pending: 2,
                                     printer: StationPart(state: "ready", words: "printer ready"), camera: nil, staffName: "Alex",
                                     stationTime: Timestamp(milliseconds: 1_790_000_000_000))

    /// A SQLite hub with event `ev1`, an organizer and a staff member (assigned) signed in.
    static func withHub(silentSeconds: Int64 = 120,
                        _ body: @Sendable (any HubStore, any TestClientProtocol) async throws -> Void) async throws {
        let (store, directory) = try await StoreContractTests.makeStore("memory")
        defer { directory.remove() }
        try await store.createEvent(EventSummary(id: "ev1", name: "Conf"), audit: nil)
        let now = Timestamp.now()
        for (role, name) in [(StaffRole.organizer, "olga"), (.staff, "alex")] {
            try await store.addStaff(StaffInfo(id: "st-\(name)", email: "\(name)@x.org", name: name, role: role), passwordHash: "unused", audit: nil)
            _ = try await store.assign(event: "ev1", emails: ["\(name)@x.org"], now: now, audit: nil)
            try await store.createSession(NewSession(
                id: "ses-\(name)", staffID: "st-\(name)",
                tokens: NewTokens(accessHash: Tokens.hash("token-\(name)"), accessExpires: now.adding(milliseconds: 3_600_000),
                                  refreshHash: Tokens.hash("refresh-\(name)"), refreshExpires: now.adding(milliseconds: 7_200_000)),
                createdAt: now))
        }
        let configuration = HubServerConfiguration(rateLimitPerSecond: 0, stationSilentSeconds: silentSeconds)
        let app = try hubApplication(store: store, configuration: configuration, logger: Logger(label: "test"))
        try await app.test(.router) { client in try await body(store, client) }
        await store.close()
    }

    static func send(_ client: any TestClientProtocol, _ method: HTTPRequest.Method, _ path: String, as who: String,
                     body: String? = nil) async throws -> (status: Int, body: Data) {
        var headers: HTTPFields = [.authorization: "Bearer token-\(who)"]
        if body != nil { headers[.contentType] = "application/json" }
        let response = try await client.execute(uri: path, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
        return (response.status.code, Data(response.body.readableBytesView))
    }

    static func json(_ report: StationReport) throws -> String { String(decoding: try HubJSON.encoder().encode(report), as: UTF8.self) }

    @Test func aReportWithAnUnknownFieldOrOverlongWordsIsRefusedNamingTheField() async throws {
        try await Self.withHub { store, client in
            #expect(try await Self.send(client, .post, HubPaths.stations, as: "alex", body: #"{"name":"Door A","deviceID":"dev-a"}"#).status == 200)
            let path = HubPaths.stationReport(event: "ev1", deviceID: "dev-a")
            var unknown = try Self.json(Self.valid)
            unknown.removeLast()
            unknown += #","battery":"low"}"#
            let refusedUnknown = try await Self.send(client, .put, path, as: "alex", body: unknown)
            #expect(refusedUnknown.status == 422)
            #expect(try HubJSON.decoder().decode(ProblemDocument.self, from: refusedUnknown.body).field == "battery")

            var long = Self.valid
            long.printer?.words = String(repeating: "x", count: UploadLimits.stateWordsCharacters + 1)
            let refusedLong = try await Self.send(client, .put, path, as: "alex", body: try Self.json(long))
            #expect(refusedLong.status == 422)
            #expect(try HubJSON.decoder().decode(ProblemDocument.self, from: refusedLong.body).field == "printer.words")

            var negative = Self.valid
            negative.pending = -1
            #expect(try await Self.send(client, .put, path, as: "alex", body: try Self.json(negative)).status == 422)
            #expect(try await store.stationContacts(event: "ev1").isEmpty)

            #expect(try await Self.send(client, .put, path, as: "alex", body: try Self.json(Self.valid)).status == 204)
            #expect(try await store.stationContacts(event: "ev1").map(\.report) == [Self.valid])
        }
    }

    @Test func staffReportOnlyAsTheStationTheirSessionRegistered() async throws {
        try await Self.withHub { store, client in
            #expect(try await Self.send(client, .post, HubPaths.stations, as: "alex", body: #"{"name":"Door A","deviceID":"dev-a"}"#).status == 200)
            let other = try await Self.send(client, .put, HubPaths.stationReport(event: "ev1", deviceID: "dev-b"), as: "alex",
                                            body: try Self.json(Self.valid))
            #expect(other.status == 403)
            #expect(try await store.stationContacts(event: "ev1").isEmpty)
            // Staff do not read the list; organizers do.
            #expect(try await Self.send(client, .get, HubPaths.stationReports(event: "ev1"), as: "alex").status == 403)
            #expect(try await Self.send(client, .get, HubPaths.stationReports(event: "ev1"), as: "olga").status == 200)
        }
    }

    @Test func theListMarksAStationSilentOnceItsLastContactIsOlderThanTheConfiguredTime() async throws {
        // Five minutes: Door A, heard from just now, stays heard from however long a loaded machine
        // takes to answer; Door B, a second past the time, is silent.
        try await Self.withHub(silentSeconds: 300) { store, client in
            let now = Timestamp.now()
            try await store.recordStationReport(event: "ev1", deviceID: "dev-a", Self.valid, receivedAt: now)
            var b = Self.valid
            b.name = "Door B"
            try await store.recordStationReport(event: "ev1", deviceID: "dev-b", b, receivedAt: now.adding(milliseconds: -301_000))
            let answer = try await Self.send(client, .get, HubPaths.stationReports(event: "ev1"), as: "olga")
            #expect(answer.status == 200)
            let list = try HubJSON.decoder().decode(StationList.self, from: answer.body)
            #expect(list.silentAfterSeconds == 300)
            #expect(list.stations.map(\.deviceID) == ["dev-a", "dev-b"])
            #expect(list.stations.map(\.silent) == [false, true])
            #expect(list.stations.first?.lastContact == now)
            #expect(list.stations.first?.report == Self.valid)
        }
    }
}
