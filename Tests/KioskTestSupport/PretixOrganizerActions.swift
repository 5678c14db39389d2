import Foundation

/// What an organizer does in pretix while the doors are open, for tests: place a late order, add
/// or revoke a device, and read back the check-ins pretix recorded (to count what a station
/// uploaded). Through pretix's own API with the seeded team token, except revoking, which pretix
/// offers in its backend only.
extension PretixServer {
    /// Places an order in event `event` (its slug) for product `item`, as a sale after the
    /// station's download would: paid (a manual payment) or pending. Returns its one position.
    public func placeOrder(event: String, item: Int, attendee: String, company: String? = nil,
                           status: PretixFacts.OrderStatus = .paid) async throws -> PretixFacts.Position {
        guard status == .paid || status == .pending else { throw PretixFailure("an order is placed paid or pending, not \(status)") }
        let parts = attendee.split(separator: " ", maxSplits: 1).map(String.init)
        let request = OrderRequest(
            email: "late@example.org", locale: "en", salesChannel: "web", status: status.rawValue,
            paymentProvider: status == .paid ? "manual" : nil, sendEmail: false,
            positions: [.init(item: item, attendeeNameParts: ["given_name": parts.first ?? "", "family_name": parts.dropFirst().first ?? ""],
                              company: company)])
        let path = "/api/v1/organizers/\(facts.organizer.slug)/events/\(event)/orders/"
        let order = try await organizer.post(path, request).decode(OrderAnswer.self, expecting: 201)
        guard let position = order.positions.first else { throw PretixFailure("pretix made order \(order.code) without a position") }
        return PretixFacts.Position(
            scenario: .late, id: position.id, positionid: position.positionid, order: order.code, secret: position.secret,
            revokedSecrets: [], orderStatus: order.status, requireApproval: order.requireApproval, item: position.item,
            addonTo: position.addonTo, attendeeName: position.attendeeName ?? attendee, company: position.company,
            email: position.attendeeEmail, blocked: position.blocked, validFrom: position.validFrom, validUntil: position.validUntil)
    }

    /// Every check-in pretix recorded in event `event`, successful or not, in the order pretix
    /// created them.
    public func checkIns(event: String) async throws -> [PretixCheckIn] {
        var all: [PretixCheckIn] = []
        var next: String? = "/api/v1/organizers/\(facts.organizer.slug)/events/\(event)/checkins/"
        while let page = next {
            let answer = try await organizer.get(page).decode(PretixPage<PretixCheckIn>.self)
            all += answer.results
            next = answer.next
        }
        return all
    }

    /// The check-ins pretix recorded for position `position` (its id) of event `event`.
    public func checkIns(event: String, position: Int) async throws -> [PretixCheckIn] {
        try await checkIns(event: event).filter { $0.position == position }
    }

    /// The answers pretix holds for position `position` (its id) of event `event`: question id → answer.
    public func answers(event: String, position: Int) async throws -> [Int: String] {
        let path = "/api/v1/organizers/\(facts.organizer.slug)/events/\(event)/orderpositions/\(position)/"
        let read = try await organizer.get(path).decode(PositionAnswers.self)
        return Dictionary(read.answers.map { ($0.question, $0.answer) }, uniquingKeysWith: { $1 })
    }

    /// The answers of position `position` once pretix holds one to question `question` (a
    /// station's upload arriving), or as they are after `limit` seconds.
    public func answers(event: String, position: Int, once question: Int, limit: TimeInterval = 30) async throws -> [Int: String] {
        let deadline = Date().addingTimeInterval(limit)
        var held = try await answers(event: event, position: position)
        while held[question] == nil && Date() < deadline {
            try await Task.sleep(for: .milliseconds(500))
            held = try await answers(event: event, position: position)
        }
        return held
    }

    /// A new device for all events (or only `events`, by slug), as the organizer adds one in
    /// pretix, with its initialization token.
    public func addDevice(name: String, securityProfile: String = "pretixscan", events: [String]? = nil) async throws -> PretixFacts.Device {
        let path = "/api/v1/organizers/\(facts.organizer.slug)/devices/"
        let device = try await organizer.post(path, DeviceRequest(name: name, allEvents: events == nil, limitEvents: events ?? [],
                                                                  securityProfile: securityProfile))
            .decode(DeviceAnswer.self, expecting: 201)
        return PretixFacts.Device(id: device.deviceId, name: device.name, securityProfile: device.securityProfile,
                                  initializationToken: device.initializationToken, gate: nil)
    }

    /// Revokes device `id` (its `device_id`) as the organizer does in pretix's backend: from then
    /// on its API token is answered 401 "Device access has been revoked.".
    public func revokeDevice(_ id: Int) throws {
        _ = try Self.script(["revoke-device", directory.path, String(id)], timeout: 120)
    }
}

/// One check-in as pretix records it (`/events/EV/checkins/`).
public struct PretixCheckIn: Decodable, Sendable {
    public var id: Int
    public var successful: Bool
    /// Why pretix refused it (`already_redeemed`, `unpaid`…); `nil` for a successful one.
    public var errorReason: String?
    /// The position's id; `nil` for a failed scan of an unknown secret.
    public var position: Int?
    /// When the scan happened (a station's original time for an offline upload).
    public var datetime: Date
    /// When pretix stored it.
    public var created: Date
    /// The check-in list's id.
    public var list: Int
    /// `entry` or `exit`.
    public var type: String
    public var gate: Int?
    /// The device's `device_id`, `nil` when it was not made by a device.
    public var deviceID: Int?
    public var autoCheckedIn: Bool

    enum CodingKeys: String, CodingKey {
        case id, successful, errorReason, position, datetime, created, list, type, gate, autoCheckedIn
        case deviceID = "deviceId"  // `device_id`, after the snake_case conversion
    }
}

private struct OrderRequest: Encodable {
    var email: String
    var locale: String
    var salesChannel: String
    var status: String
    var paymentProvider: String?
    var sendEmail: Bool
    var positions: [Position]

    struct Position: Encodable {
        var item: Int
        var attendeeNameParts: [String: String]
        var company: String?
    }
}

private struct OrderAnswer: Decodable {
    var code: String
    var status: PretixFacts.OrderStatus
    var requireApproval: Bool
    var positions: [Position]

    struct Position: Decodable {
        var id: Int
        var positionid: Int
        var secret: String
        var item: Int
        var addonTo: Int?
        var attendeeName: String?
        var company: String?
        var attendeeEmail: String?
        var blocked: [String]?
        var validFrom: Date?
        var validUntil: Date?
    }
}

private struct DeviceRequest: Encodable {
    var name: String
    var allEvents: Bool
    var limitEvents: [String]
    var securityProfile: String
}

private struct DeviceAnswer: Decodable {
    var deviceId: Int
    var name: String
    var securityProfile: String
    var initializationToken: String
}

/// A position's answers as pretix's API gives them.
struct PositionAnswers: Decodable {
    struct Answer: Decodable {
        var question: Int
        var answer: String
    }
    var answers: [Answer]
}
