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

/// Every route × role × event through the hub's router in process, on both stores.
@Suite(.serialized, .tags(.endToEnd), .endToEnd, .blocking) struct AccessMatrixRouterTests {
    @Test(arguments: StoreContractTests.kinds) func everyRouteAnswersEachRoleForEachEventAsTheRulesSay(kind: String) async throws {
        let (store, directory) = try await StoreContractTests.makeStore(kind)
        defer { directory.remove() }
        for event in ["ev1", "ev2"] { try await store.createEvent(EventSummary(id: event, name: event, toleranceWindowMilliseconds: 30_000), audit: nil) }
        var tokens: [AccessMatrix.Caller: String] = [:]
        let now = Timestamp.now()
        for person in AccessMatrix.people {
            let info = StaffInfo(id: "st-\(person.caller)", email: person.email, name: person.name, role: person.role)
            try await store.addStaff(info, passwordHash: "unused", audit: nil)
            for event in person.events { _ = try await store.assign(event: event, emails: [person.email], now: now, audit: nil) }
            let token = "token-of-\(person.caller)"
            try await store.createSession(NewSession(
                id: "ses-\(person.caller)", staffID: info.id,
                tokens: NewTokens(accessHash: Tokens.hash(token), accessExpires: now.adding(milliseconds: 3_600_000),
                                  refreshHash: Tokens.hash("refresh-" + token), refreshExpires: now.adding(milliseconds: 7_200_000)),
                createdAt: now))
            tokens[person.caller] = token
        }
        let app = try hubApplication(store: store, configuration: HubServerConfiguration(rateLimitPerSecond: 0), logger: Logger(label: "test"))
        let signedIn = tokens
        let mismatches = try await app.test(.router) { client in
            try await AccessMatrix.run(tokens: signedIn) { method, path, token, body in
                var headers: HTTPFields = [:]
                if let token { headers[.authorization] = "Bearer \(token)" }
                if body != nil { headers[.contentType] = "application/json" }
                let response = try await client.execute(
                    uri: path, method: HTTPRequest.Method(method)!, headers: headers, body: body.map { ByteBuffer(string: $0) })
                return (response.status.code, Data(response.body.readableBytesView))
            }
        }
        #expect(mismatches == [])
        await store.close()
    }
}
