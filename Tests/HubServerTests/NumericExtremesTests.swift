import CheckInCore
import Foundation
import HubAPI
import KioskTestSupport
import Testing

/// Int64.min, Int64.max, 0 and -1 in every numeric field of every route, in bodies and in query
/// parameters, against a real hub process: never a 5xx, and the hub still answers afterwards.
@Suite(.serialized, .tags(.endToEnd), .endToEnd, .blocking) struct NumericExtremesTests {
    static let extremes: [Int64] = [.min, .max, 0, -1]
    /// Beyond what an Int64 holds, as JSON text: a 422, never a trap in the decoder.
    static let beyond = ["9223372036854775808", "-9223372036854775809", "1e300", "-0.5"]

    /// Each request: method, path and body, with the extreme spliced in as JSON text.
    static func requests(_ n: String, device: String) -> [(method: String, path: String, body: String?)] {
        let key = #"{"deviceID": "\#(device)", "guestID": "G1", "scannedAt": \#(n)}"#
        let now = Timestamp.now().milliseconds
        let plausibleKey = #"{"deviceID": "\#(device)", "guestID": "G2", "scannedAt": \#(now)}"#
        return [
            ("POST", HubPaths.checkIns(event: "ev"),
             #"{"items": [{"key": \#(key), "station": "S", "operatorName": "O", "source": "camera", "direction": "entry"}]}"#),
            ("POST", HubPaths.undos(event: "ev"),
             #"{"items": [{"key": \#(key), "undoneAt": \#(now), "station": "S", "operatorName": "O"}]}"#),
            ("POST", HubPaths.undos(event: "ev"),
             #"{"items": [{"key": \#(plausibleKey), "undoneAt": \#(n), "station": "S", "operatorName": "O"}]}"#),
            ("POST", HubPaths.walkIns(event: "ev"),
             #"{"items": [{"guestID": "w\#(n.hashValue)", "code": "W\#(n.hashValue.magnitude)", "name": "N", "email": "", "company": "", "accessTypeID": "general", "deviceID": "\#(device)", "station": "S", "operatorName": "O", "createdAt": \#(n)}]}"#),
            // Numbers where the contract wants text: refused as the wrong type.
            ("POST", HubPaths.signIn, #"{"email": \#(n), "password": \#(n)}"#),
            ("POST", HubPaths.refresh, #"{"refreshToken": \#(n)}"#),
            ("POST", HubPaths.stations, #"{"name": "Door", "deviceID": \#(n)}"#),
            ("GET", HubPaths.roster(event: "ev") + "?cursor=\(n)", nil),
            ("GET", HubPaths.roster(event: "ev") + "?limit=\(n)", nil),
            ("GET", HubPaths.roster(event: "ev") + "?cursor=\(n)&limit=\(n)", nil),
            ("GET", HubPaths.roster(event: "ev") + "?wait=\(n)", nil),
            ("GET", HubPaths.events + "?range=\(n)", nil),
            ("GET", HubPaths.stats(event: n), nil),
            ("GET", HubPaths.conflicts(event: n), nil),
        ]
    }

    @Test(.hangGuard) func extremeNumbersInEveryFieldNeverGetAServerError() async throws {
        let db = try HubProcessTests().prepare()
        let server = try HubProcess(db: db)
        defer { server.stop() }
        let anonymous = HubClient(base: server.base)
        let organizer = try await anonymous.post(HubPaths.signIn, SignInRequest(email: "org@x.org", password: "organizer-pass"), as: TokenPair.self)
        let staff = try await anonymous.post(HubPaths.signIn, SignInRequest(email: "alex@x.org", password: "staff-pass-1"), as: TokenPair.self)
        let station = HubClient(base: server.base, token: staff.accessToken)
        _ = try await station.post(HubPaths.stations, StationRegistrationRequest(name: "Door", deviceID: "door-x", deviceSecret: "secret-of-door-x-1"),
                                   as: StationRegistration.self)
        var sent = 0
        for token in [organizer.accessToken, staff.accessToken] {
            let client = HubClient(base: server.base, token: token)
            for n in Self.extremes.map(String.init) + Self.beyond {
                for request in Self.requests(n, device: "door-x") {
                    let answer = try await client.send(request.method, request.path, body: request.body.map { Data($0.utf8) })
                    sent += 1
                    #expect(answer.status < 500, "\(request.method) \(request.path) with \(n): \(answer.status) \(String(decoding: answer.data, as: UTF8.self))")
                    #expect(server.isRunning, "\(request.method) \(request.path) with \(n)")
                }
            }
        }
        #expect(sent == 2 * 8 * 14)
        #expect(server.isRunning)
        #expect(try await anonymous.send("GET", HubPaths.health).status == 200)
    }
}
