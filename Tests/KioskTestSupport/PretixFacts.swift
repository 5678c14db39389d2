import Foundation

/// What `Kiosk/pretix-seed.py` made in a test's pretix server: the organizer, its devices and
/// their initialization tokens, and per event the products, questions, check-in lists and every
/// position with its secret and state. Read from the seed's JSON (`PRETIX_FACTS`).
public struct PretixFacts: Decodable, Sendable {
    public var organizer: Organizer
    /// An API token of a team with every permission: the tests' own calls as the organizer.
    public var teamToken: String
    public var gates: [Gate]
    public var devices: [Device]
    public var events: [Event]
    public var seededAt: Date

    public struct Organizer: Decodable, Sendable {
        public var slug: String
        public var name: String
    }

    public struct Gate: Decodable, Sendable, Equatable {
        public var id: Int
        public var name: String
        public var identifier: String
    }

    /// A device as the organizer created it in pretix, not yet initialized.
    public struct Device: Decodable, Sendable {
        /// pretix's `device_id`, numbered per organizer.
        public var id: Int
        public var name: String
        /// pretix's profile identifier: `pretixscan`, `pretixscan_online_noorders`, `pretixscan_online_kiosk`.
        public var securityProfile: String
        /// Single-use: `POST /api/v1/device/initialize` with it answers the device's API token once.
        public var initializationToken: String
        public var gate: Gate?
    }

    public struct Event: Decodable, Sendable {
        public var slug: String
        public var name: String
        public var timeZone: String
        public var currency: String
        /// From admission to the end pretix takes the event as running: a device that asks which
        /// event to admit is told to keep it then.
        public var admissionOpens: Date
        public var ends: Date
        /// Whether the tickets carry `pretix_sig1` signed secrets.
        public var signed: Bool
        public var secretGenerator: String
        /// The event's `valid_keys.pretix_sig1`: base64 of each public key's PEM.
        public var validKeys: [String]
        public var items: [Item]
        public var questions: [Question]
        public var checkinLists: [CheckInList]
        public var positions: [Position]
    }

    public struct Item: Decodable, Sendable {
        public var id: Int
        public var name: String
        public var admission: Bool
        public var checkinAttention: Bool
        public var checkinText: String?
    }

    public struct Question: Decodable, Sendable {
        public var id: Int
        public var identifier: String
        public var question: String
        /// pretix's type code: `B` yes/no, `C` choice, `S` text…
        public var type: String
        public var required: Bool
        public var askDuringCheckin: Bool
        public var showDuringCheckin: Bool
        /// The products it is asked for.
        public var items: [Int]
        public var options: [Option]

        public struct Option: Decodable, Sendable {
            public var id: Int
            public var identifier: String
            public var answer: String
        }
    }

    public struct CheckInList: Decodable, Sendable {
        public var id: Int
        public var name: String
        public var allProducts: Bool
        public var limitProducts: [Int]
        public var includePending: Bool
        public var allowMultipleEntries: Bool
        public var allowEntryAfterExit: Bool
        /// The list's JsonLogic rules as JSON text, or `nil` when it has none.
        public var rules: String?
    }

    /// pretix's order status codes.
    public enum OrderStatus: String, Decodable, Sendable {
        case pending = "n"
        case paid = "p"
        case expired = "e"
        case canceled = "c"
    }

    /// What a seeded position is there to test.
    public enum Scenario: String, Decodable, Sendable {
        case paid, attention, pending, unapproved, expired, blocked, canceled, multi
        case validFromFuture = "valid_from_future"
        case validUntilPast = "valid_until_past"
        /// Terminal escapes and a right-to-left override in the name and company.
        case hostileName = "hostile_name"
        /// A product with a required question asked during check-in, not answered in the order.
        case questionToAsk = "question_to_ask"
        /// A product with a question whose answer is shown during check-in.
        case answerShown = "answer_shown"
        /// The `--orders N` event's paid positions.
        case bulk
        /// An order placed by a test after the seed (``PretixServer/placeOrder(event:item:attendee:company:status:)``).
        case late
    }

    public struct Position: Decodable, Sendable {
        public var scenario: Scenario
        public var id: Int
        public var positionid: Int
        /// The order code.
        public var order: String
        /// The secret pretix holds now (the ticket's QR code).
        public var secret: String
        /// Earlier secrets of this position that pretix revoked (a signed ticket whose order was
        /// canceled): what the attendee's old ticket still shows.
        public var revokedSecrets: [String]
        public var orderStatus: OrderStatus
        public var requireApproval: Bool
        public var item: Int
        /// The position this one is an add-on to.
        public var addonTo: Int?
        public var attendeeName: String
        public var company: String?
        public var email: String?
        /// Reasons pretix blocks it for (e.g. `admin`), or `nil`.
        public var blocked: [String]?
        public var validFrom: Date?
        public var validUntil: Date?
    }

    public static func decode(_ data: Data) throws -> PretixFacts {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(PretixFacts.self, from: data)
    }
}

extension PretixFacts {
    /// The plain event: random secrets, one position per scenario of pretix's offline decision order.
    public var conference: Event { get throws { try event("conference") } }
    /// The signed event: `pretix_sig1` secrets, lists with rules, questions at the door.
    public var festival: Event { get throws { try event("festival") } }
    /// The large event of a server started with `orders:`.
    public var big: Event { get throws { try event("big") } }

    public func event(_ slug: String) throws -> Event {
        guard let event = events.first(where: { $0.slug == slug }) else { throw PretixFailure("no event \(slug) was seeded") }
        return event
    }

    public func device(_ name: String) throws -> Device {
        guard let device = devices.first(where: { $0.name == name }) else { throw PretixFailure("no device \(name) was seeded") }
        return device
    }
}

extension PretixFacts.Event {
    public func positions(_ scenario: PretixFacts.Scenario) -> [PretixFacts.Position] {
        positions.filter { $0.scenario == scenario }
    }

    /// The first position seeded for `scenario`.
    public func position(_ scenario: PretixFacts.Scenario) throws -> PretixFacts.Position {
        guard let position = positions.first(where: { $0.scenario == scenario }) else {
            throw PretixFailure("event \(slug) has no position for \(scenario)")
        }
        return position
    }

    public func item(_ name: String) throws -> PretixFacts.Item {
        guard let item = items.first(where: { $0.name == name }) else { throw PretixFailure("event \(slug) has no product \(name)") }
        return item
    }

    public func list(_ name: String) throws -> PretixFacts.CheckInList {
        guard let list = checkinLists.first(where: { $0.name == name }) else { throw PretixFailure("event \(slug) has no check-in list \(name)") }
        return list
    }
}
