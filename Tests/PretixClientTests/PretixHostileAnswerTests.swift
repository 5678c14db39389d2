import CheckInCore
import Foundation
import KioskTestSupport
import PretixClient
import Testing

/// Answers a real pretix never gives on purpose, from a scripted server on loopback: each is
/// refused with a typed error that says what to do, within the client's bounds, and nothing of
/// it is used.
@Suite(.hangGuard)
struct PretixHostileAnswerTests {
    func ordersError(_ answer: @escaping @Sendable (ScriptedHTTPServer.Request) -> ScriptedHTTPServer.Response,
                     client configure: (ScriptedPretix) throws -> PretixClient = { try $0.client() }) async throws -> PretixError? {
        let pretix = try ScriptedPretix(answer)
        let client = try configure(pretix)
        do {
            var cursor = PretixOrderCursor.fresh
            var next: PretixNextPage?
            repeat {
                let page = try await client.ordersPage(event: "conference", cursor: cursor, next: next)
                (cursor, next) = (page.cursor, page.next)
            } while next != nil
            return nil
        } catch {
            return error
        }
    }

    @Test func anAnswerLargerThanTheBoundIsRefusedNotHeld() async throws {
        let huge = "{\"count\": 1, \"next\": null, \"results\": [" + String(repeating: " ", count: 300_000) + "]}"
        let error = try await ordersError { _ in .ordersPage(huge) }
        #expect(error == .malformed("an answer larger than 262144 bytes"))
        #expect(error?.isTransient == true && error?.description.contains("nothing of it was used") == true)
    }

    @Test func aServerThatDoesNotAnswerInTimeIsUnreachableWithinTheTimeout() async throws {
        // Its answer would come after 60 s, empty (not JSON): only the client's bound says "timed out".
        let error = try await ordersError({ _ in ScriptedHTTPServer.Response(status: 200, delay: 60) }, client: { try $0.client(timeout: .seconds(1)) })
        #expect(error == .unreachable("timed out"))
    }

    @Test(arguments: [
        ("not JSON", "<html>Bad gateway</html>", "the orders of conference: not JSON"),
        ("a field of the wrong type", "{\"count\": 1, \"next\": null, \"results\": [{\"code\": 5}]}", "the orders of conference: results.[0].code has the wrong type"),
        ("a missing field", "{\"count\": 1, \"next\": null}", "the orders of conference: .results missing"),
        ("a time that is none", "{\"count\": 1, \"next\": null, \"results\": [" + orderJSON(datetime: "2026-13-45T99:00:00Z") + "]}",
         "the orders of conference: results.[0].datetime is not valid"),
        ("an unknown order status", "{\"count\": 1, \"next\": null, \"results\": [" + orderJSON(status: "x") + "]}",
         "the orders of conference: results.[0].status is not valid"),
    ])
    func aBodyThatIsNotAnOrdersPageIsMalformed(_ name: String, body: String, reason: String) async throws {
        let error = try await ordersError { _ in .ordersPage(body) }
        #expect(error == .malformed(reason), "\(name)")
    }

    @Test func anOrdersPageWithoutPretixsPageTimeIsRefused() async throws {
        let error = try await ordersError { _ in .ordersPage("{\"count\": 0, \"next\": null, \"results\": []}", generated: nil) }
        guard case .malformed(let reason) = error else { Issue.record("\(String(describing: error))"); return }
        #expect(reason.contains("X-Page-Generated"))
    }

    @Test func aNextPageOnAnotherHostIsAskedOfThisServerSoTheTokenGoesNowhereElse() async throws {
        let pretix = try ScriptedPretix { request in
            if request.query["page"] == "2" {
                return .ordersPage("{\"count\": 2, \"next\": null, \"results\": [" + orderJSON(code: "SECOND", secret: "two") + "]}")
            }
            return .ordersPage("{\"count\": 2, \"next\": \"https://elsewhere.example/api/v1/organizers/doortest/events/conference/orders/?page=2&ordering=datetime\", \"results\": ["
                + orderJSON(code: "FIRST", secret: "one") + "]}")
        }
        let client = try pretix.client()
        let first = try await client.ordersPage(event: "conference", cursor: .fresh)
        let next = try #require(first.next)
        let second = try await client.ordersPage(event: "conference", cursor: first.cursor, next: next)
        #expect(second.orders.map(\.code) == ["SECOND"] && second.next == nil && second.cursor.isComplete)
        #expect(pretix.requests.count == 2 && pretix.requests.allSatisfy { $0.headers["authorization"] == "Device device-token" })
        #expect(pretix.requests[1].path == "/api/v1/organizers/doortest/events/conference/orders/")
    }

    @Test(arguments: [
        ("another list", "http://x/api/v1/organizers/doortest/events/conference/checkinlists/?page=2", "the next page is not on the same list"),
        ("the same page again", "http://x/api/v1/organizers/doortest/events/conference/orders/?page=1", "the next page is not page 2"),
        ("a page without number", "http://x/api/v1/organizers/doortest/events/conference/orders/?cursor=abc", "the next page is not page 2"),
    ])
    func aNextPageThatLeadsElsewhereOrInCirclesIsRefused(_ name: String, next: String, reason: String) async throws {
        let error = try await ordersError { _ in .ordersPage("{\"count\": 9, \"next\": \"\(next)\", \"results\": []}") }
        #expect(error == .malformed(reason), "\(name)")
    }

    @Test func endlessPagesStopAtTheBound() async throws {
        let error = try await ordersError({ request in
            let page = Int(request.query["page"] ?? "1")!
            return .ordersPage("{\"count\": 9, \"next\": \"http://x/api/v1/organizers/doortest/events/conference/orders/?page=\(page + 1)\", \"results\": []}")
        }, client: { try $0.client(maximumPages: 3) })
        #expect(error == .malformed("more than 3 pages"))
    }

    @Test(arguments: [
        (401, "{\"detail\": \"Device access has been revoked.\"}", [String: String](), PretixError.deviceRevoked),
        (401, "{\"detail\": \"Invalid token.\"}", [:], .unauthorized("Invalid token.")),
        (403, "{\"detail\": \"Request denied by device security profile.\"}", [:],
         .notAllowedByProfile(profile: "pretixscan", what: "the orders of conference")),
        (429, "{\"detail\": \"Request was throttled.\"}", ["Retry-After": "7"], .tooManyRequests(retryAfterSeconds: 7)),
        (503, "<html>maintenance</html>", [:], .serverError(status: 503)),
        (404, "{\"detail\": \"\\u001b]0;owned\\u0007Not found.\"}", [:], .refused(status: 404, detail: "]0;ownedNot found.")),
    ])
    func statusesAreTypedAndTheirTextsCleaned(_ status: Int, body: String, headers: [String: String], expected: PretixError) async throws {
        let error = try await ordersError { _ in .json(status, body, headers: headers) }
        #expect(error == expected)
        #expect(error?.description.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F } == true)
    }

    @Test func aStationNotYetADeviceAsksNothingButToBeInitialized() async throws {
        let pretix = try ScriptedPretix { _ in .json(200, "{}") }
        let client = try PretixClient(server: URL(string: pretix.server.url)!)
        await #expect(throws: PretixError.notInitialized) { _ = try await client.info() }
        #expect(pretix.requests.isEmpty)
    }

    @Test func aRevokedDeviceIsToldWhatHappensAndWhatToDo() {
        #expect(PretixError.deviceRevoked.description.contains("guest data is removed"))
        #expect(PretixError.deviceRevoked.description.contains("create a new device in pretix"))
        #expect(!PretixError.deviceRevoked.isTransient && PretixError.unreachable("x").isTransient)
    }

    @Test func aProfileWithoutOrdersIsRefusedBeforeAnythingIsSent() async throws {
        let pretix = try ScriptedPretix { _ in .ordersPage("{\"count\": 0, \"next\": null, \"results\": []}") }
        for profile in [PretixSecurityProfile.pretixscanOnlineNoOrders, .pretixscanOnlineKiosk, .other("pretixpos")] {
            await #expect(throws: PretixError.notAllowedByProfile(profile: profile.identifier, what: "downloading the orders (an offline roster)")) {
                _ = try await pretix.client(profile: profile).ordersPage(event: "conference", cursor: .fresh)
            }
        }
        #expect(pretix.requests.isEmpty)
    }

    @Test func aRedeemAnswerThatIsNoneOfPretixsIsMalformedAndAnUnknownSecretIsAnAnswer() async throws {
        let pretix = try ScriptedPretix { request in
            request.body.contains(Data("garbage".utf8))
                ? .json(404, "<h1>Not Found</h1>")
                : .json(404, "{\"detail\": \"Not found.\", \"status\": \"error\", \"reason\": \"invalid\", \"reason_explanation\": null}")
        }
        let client = try pretix.client()
        let scan = PretixScan(secret: "nosuch", nonce: .random(), datetime: PretixTime(.now()))
        #expect(try await client.redeem(scan, lists: [1], questionsSupported: false) == .refused(.invalid, explanation: nil, position: nil))
        var garbage = scan
        garbage.secret = "garbage"
        await #expect(throws: PretixError.malformed("redeeming a scan: not JSON")) {
            _ = try await client.redeem(garbage, lists: [1], questionsSupported: false)
        }
    }

    @Test func aSecretIsSentEscapedInTheQueuedUploadsPath() async throws {
        let pretix = try ScriptedPretix { _ in .json(201, "{\"status\": \"ok\"}") }
        let signed = "E4Bi/byTSylQ+gKj=="
        let result = try await pretix.client().upload(PretixScan(secret: signed, nonce: .random(), datetime: PretixTime(.now())), event: "conference", list: 3)
        #expect(result == .recorded)
        let target = try #require(pretix.requests.first?.target)
        #expect(target == "/api/v1/organizers/doortest/events/conference/checkinlists/3/positions/E4Bi%2FbyTSylQ%2BgKj%3D%3D/redeem/")
    }
}
