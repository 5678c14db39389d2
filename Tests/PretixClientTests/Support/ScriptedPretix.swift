import Foundation
import KioskTestSupport
import PretixClient
import Synchronization

/// A scripted server speaking as pretix would not: every request is recorded and answered by
/// the test's closure (``KioskTestSupport/ScriptedHTTPServer``), for the answers a real pretix
/// never gives on purpose.
final class ScriptedPretix: Sendable {
    let server: ScriptedHTTPServer
    private let log: RequestLog

    private final class RequestLog: Sendable {
        let requests = Mutex<[ScriptedHTTPServer.Request]>([])
    }

    init(_ answer: @escaping @Sendable (ScriptedHTTPServer.Request) -> ScriptedHTTPServer.Response) throws {
        let log = RequestLog()
        self.log = log
        server = try ScriptedHTTPServer { request in
            log.requests.withLock { $0.append(request) }
            return answer(request)
        }
    }

    /// Every request received, in order.
    var requests: [ScriptedHTTPServer.Request] { log.requests.withLock { $0 } }

    /// A client for this server as an initialized device of `profile`.
    func client(profile: PretixSecurityProfile = .pretixscan, timeout: Duration = .seconds(5), maximumAnswerBytes: Int = 256 * 1024,
                maximumPages: Int = 100) throws -> PretixClient {
        try PretixClient(server: URL(string: server.url)!, device: Self.device(profile), timeout: timeout,
                         maximumAnswerBytes: maximumAnswerBytes, maximumPages: maximumPages)
    }

    static func device(_ profile: PretixSecurityProfile) -> PretixDevice {
        PretixDevice(organizer: "doortest", deviceID: 7, uniqueSerial: "SERIAL", apiToken: "device-token", name: "Door", gate: nil,
                     securityProfile: profile)
    }

    deinit { server.stop() }
}

extension ScriptedHTTPServer.Response {
    /// A JSON answer with the header an orders page carries.
    static func ordersPage(_ json: String, generated: String? = "2026-11-28T01:13:23.873956Z") -> Self {
        .json(200, json, headers: generated.map { ["X-Page-Generated": $0] } ?? [:])
    }
}

/// JSON of one order as pretix sends it, with one position.
func orderJSON(code: String = "ABC12", status: String = "p", secret: String = "s3cret", datetime: String = "2026-11-25T01:12:55Z",
               positionExtra: String = "") -> String {
    """
    {"code": "\(code)", "status": "\(status)", "require_approval": false, "valid_if_pending": false, "checkin_attention": false,
     "checkin_text": null, "locale": "en", "datetime": "\(datetime)", "last_modified": "2026-11-28T01:12:57.841494Z",
     "positions": [{"id": 1, "order": "\(code)", "positionid": 1, "item": 1, "variation": null, "subevent": null, "addon_to": null,
       "secret": "\(secret)", "attendee_name": "Ada Lovelace", "company": null, "attendee_email": null, "blocked": null,
       "valid_from": null, "valid_until": null, "checkins": [], "print_logs": [], "answers": [], "canceled": false\(positionExtra)}]}
    """
}
