import CheckInCore
import Foundation
import HubAPI

/// Every route × role × event, with the answer each must get, written from the issue's rules
/// (not from the hub's own policy table): no token → 401; an event the caller may not see, or
/// one that does not exist → 404; a role below the route's → 403; otherwise the route's answer.
/// Run in process (``AccessMatrixRouterTests``) and against a real hub (``AccessMatrixProcessTests``).
struct AccessMatrix {
    enum Caller: String, CaseIterable, Sendable {
        case anonymous, organizer, support, staff, staffElsewhere
    }

    struct Person: Sendable {
        var caller: Caller
        var email: String
        var name: String
        var role: StaffRole
        var password: String
        /// Events assigned (organizers see every event anyway).
        var events: [String]
    }

    static let people = [
        Person(caller: .organizer, email: "olga@x.org", name: "Olga", role: .organizer, password: "organizer-pass", events: []),
        Person(caller: .support, email: "sam@x.org", name: "Sam", role: .support, password: "support-pass", events: ["ev1"]),
        Person(caller: .staff, email: "alex@x.org", name: "Alex", role: .staff, password: "staff-pass-1", events: ["ev1"]),
        Person(caller: .staffElsewhere, email: "eve@x.org", name: "Eve", role: .staff, password: "staff-pass-2", events: ["ev2"]),
    ]
    /// `ev1` and `ev2` exist; `none` does not.
    static let events = ["ev1", "ev2", "none"]

    struct Route: Sendable {
        var name: String
        var method: String
        var path: @Sendable (String) -> String
        var body: String?
        var minimum: StaffRole
        var eventScoped: Bool
        var success: Int
        /// For routes naming the caller's own device: the path from the event and the device id
        /// the caller's session holds the registration of (`path` is then unused).
        var devicePath: (@Sendable (_ event: String, _ device: String) -> String)?

        func path(_ event: String, device: String) -> String { devicePath?(event, device) ?? path(event) }
    }

    static let routes: [Route] = [
        Route(name: "events", method: "GET", path: { _ in HubPaths.events }, minimum: .staff, eventScoped: false, success: 200),
        Route(name: "stations", method: "POST", path: { _ in HubPaths.stations }, body: #"{"name":"Door"}"#, minimum: .staff, eventScoped: false, success: 200),
        Route(name: "metrics", method: "GET", path: { _ in HubPaths.metrics }, minimum: .support, eventScoped: false, success: 200),
        Route(name: "roster", method: "GET", path: { HubPaths.roster(event: $0) }, minimum: .staff, eventScoped: true, success: 200),
        Route(name: "check-ins", method: "POST", path: { HubPaths.checkIns(event: $0) }, body: #"{"items":[]}"#, minimum: .staff, eventScoped: true, success: 200),
        Route(name: "walk-ins", method: "POST", path: { HubPaths.walkIns(event: $0) }, body: #"{"items":[]}"#, minimum: .staff, eventScoped: true, success: 200),
        Route(name: "undos", method: "POST", path: { HubPaths.undos(event: $0) }, body: #"{"items":[]}"#, minimum: .staff, eventScoped: true, success: 200),
        Route(name: "stats", method: "GET", path: { HubPaths.stats(event: $0) }, minimum: .staff, eventScoped: true, success: 200),
        Route(name: "conflicts", method: "GET", path: { HubPaths.conflicts(event: $0) }, minimum: .support, eventScoped: true, success: 200),
        Route(name: "station report", method: "PUT", path: { _ in "" }, body: stationReportBody, minimum: .staff, eventScoped: true, success: 204,
              devicePath: { HubPaths.stationReport(event: $0, deviceID: $1) }),
        Route(name: "station list", method: "GET", path: { HubPaths.stationReports(event: $0) }, minimum: .support, eventScoped: true, success: 200),
    ]

    static let stationReportBody = #"{"name":"Door","version":"0.9.0","pending":0,"printer":{"state":"ready","words":"printer ready"},"#
        + #""staffName":"Sam","stationTime":1790000000000}"#

    static func expected(_ route: Route, _ caller: Caller, event: String) -> Int {
        guard let person = people.first(where: { $0.caller == caller }) else { return 401 }
        if route.eventScoped {
            let exists = event != "none"
            guard exists, person.role == .organizer || person.events.contains(event) else { return 404 }
        }
        return person.role >= route.minimum ? route.success : 403
    }

    /// Sends one request: method, path, bearer token, JSON body → status and body.
    typealias Send = @Sendable (_ method: String, _ path: String, _ token: String?, _ body: String?) async throws -> (status: Int, body: Data)

    /// Registers a station for every signed-in caller (uploads need one), then sends every
    /// route × caller × event; returns one line per answer that differs from ``expected(_:_:event:)``,
    /// and checks what `/v1/events` lists.
    static func run(tokens: [Caller: String], send: Send) async throws -> [String] {
        var mismatches: [String] = []
        // The device each session holds the registration of: a registration answers it.
        var devices: [Caller: String] = [:]
        func registered(_ caller: Caller, _ status: Int, _ body: Data) {
            if status == 200, let registration = try? HubJSON.decoder().decode(StationRegistration.self, from: body) {
                devices[caller] = registration.deviceID
            }
        }
        for person in people {
            let (status, body) = try await send("POST", HubPaths.stations, tokens[person.caller], #"{"name":"Door of \#(person.name)"}"#)
            if status != 200 { mismatches.append("registering \(person.caller): \(status)") }
            registered(person.caller, status, body)
        }
        for route in routes {
            for caller in Caller.allCases {
                for event in route.eventScoped ? events : ["ev1"] {
                    let path = route.path(event, device: devices[caller] ?? "dev-of-nobody")
                    let (status, body) = try await send(route.method, path, tokens[caller], route.body)
                    if route.method == "POST", route.name == "stations" { registered(caller, status, body) }
                    let want = expected(route, caller, event: event)
                    if status != want {
                        mismatches.append("\(route.method) \(path) as \(caller): \(status), expected \(want) "
                            + String(decoding: body.prefix(200), as: UTF8.self))
                    }
                }
            }
        }
        for person in people {
            let (_, body) = try await send("GET", HubPaths.events, tokens[person.caller], nil)
            let listed = try HubJSON.decoder().decode(EventList.self, from: body).events.map(\.id).sorted()
            let want = person.role == .organizer ? ["ev1", "ev2"] : person.events
            if listed != want { mismatches.append("events listed for \(person.caller): \(listed), expected \(want)") }
        }
        // Last, since it ends the sessions: sign-out, for any signed-in caller.
        for caller in Caller.allCases {
            let (status, _) = try await send("POST", HubPaths.signOut, tokens[caller], nil)
            let want = caller == .anonymous ? 401 : 204
            if status != want { mismatches.append("POST \(HubPaths.signOut) as \(caller): \(status), expected \(want)") }
            if caller != .anonymous, try await send("GET", HubPaths.events, tokens[caller], nil).status != 401 {
                mismatches.append("\(caller)'s token still works after sign-out")
            }
        }
        return mismatches
    }
}
