/// An event of the organizer, as a device downloads it.
public struct PretixEvent: Sendable, Hashable, Codable {
    public var slug: String
    public var name: PretixText
    /// `Europe/Berlin`: the zone the event's rules and times are read in.
    public var timezone: String
    public var dateFrom: PretixTime
    public var dateTo: PretixTime?
    public var dateAdmission: PretixTime?
    public var hasSubevents: Bool
    /// Badges print only when `pretix.plugins.badges` is among them.
    public var plugins: [String]
    /// The public keys signed tickets verify against (event detail only, not the list).
    public var validKeys: ValidKeys?

    public struct ValidKeys: Sendable, Hashable, Codable {
        /// Base64 of each Ed25519 public key's PEM, newest and retired alike.
        public var pretixSig1: [String]

        enum CodingKeys: String, CodingKey { case pretixSig1 = "pretix_sig1" }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            pretixSig1 = try container.decodeIfPresent([String].self, forKey: .pretixSig1) ?? []
        }
    }

    /// Whether pretix prints badges for it.
    public var printsBadges: Bool { plugins.contains("pretix.plugins.badges") }

    enum CodingKeys: String, CodingKey {
        case slug, name, timezone, dateFrom = "date_from", dateTo = "date_to", dateAdmission = "date_admission"
        case hasSubevents = "has_subevents", plugins, validKeys = "valid_keys"
    }
}

/// A product of an event (pretix's item), with its variations.
public struct PretixItem: Sendable, Hashable, Codable {
    public var id: Int
    public var name: PretixText
    public var internalName: String?
    public var active: Bool
    /// An admission product (a ticket), not merchandise.
    public var admission: Bool
    /// Door staff must look at this guest (a VIP).
    public var checkinAttention: Bool
    /// Shown to the door staff on admission.
    public var checkinText: String?
    public var variations: [Variation]

    public struct Variation: Sendable, Hashable, Codable {
        public var id: Int
        public var value: PretixText
        public var checkinAttention: Bool?
        public var checkinText: String?

        enum CodingKeys: String, CodingKey { case id, value, checkinAttention = "checkin_attention", checkinText = "checkin_text" }
    }

    enum CodingKeys: String, CodingKey {
        case id, name, internalName = "internal_name", active, admission, checkinAttention = "checkin_attention"
        case checkinText = "checkin_text", variations
    }
}

/// A question to the buyer, some of them asked or shown at the door.
public struct PretixQuestion: Sendable, Hashable, Codable {
    public var id: Int
    public var question: PretixText
    /// pretix's type code: `N` number, `S` text, `T` multi-line, `B` yes/no, `C` choice,
    /// `M` multiple choice, `F` file, `D` date, `H` time, `W` date and time, `CC` country,
    /// `TEL` phone, `EMAIL`.
    public var type: String
    public var required: Bool
    /// The products it is asked for.
    public var items: [Int]
    public var options: [Option]
    public var identifier: String
    /// Asked at the door when the order holds no answer.
    public var askDuringCheckin: Bool
    /// Its answer is shown to the door staff.
    public var showDuringCheckin: Bool
    /// Bounds pretix checks an answer against (decimal and `YYYY-MM-DD` strings).
    public var validNumberMin: String? = nil
    public var validNumberMax: String? = nil
    public var validDateMin: String? = nil
    public var validDateMax: String? = nil
    public var validStringLengthMax: Int? = nil
    /// Asked only when this question was answered with one of ``dependencyValues`` (option
    /// identifiers, or `True`/`False` for a yes/no question).
    public var dependencyQuestion: Int? = nil
    public var dependencyValues: [String]? = nil

    public struct Option: Sendable, Hashable, Codable {
        public var id: Int
        public var identifier: String
        public var answer: PretixText
    }

    enum CodingKeys: String, CodingKey {
        case id, question, type, required, items, options, identifier
        case askDuringCheckin = "ask_during_checkin", showDuringCheckin = "show_during_checkin"
        case validNumberMin = "valid_number_min", validNumberMax = "valid_number_max", validDateMin = "valid_date_min"
        case validDateMax = "valid_date_max", validStringLengthMax = "valid_string_length_max"
        case dependencyQuestion = "dependency_question", dependencyValues = "dependency_values"
    }
}

/// A secret pretix revoked (a signed ticket replaced, a canceled order's) or blocked.
public struct PretixSecretEntry: Sendable, Hashable, Codable {
    public var id: Int
    public var secret: String
    /// When it was revoked (revoked secrets).
    public var created: PretixTime?
    /// When its block changed (blocked secrets).
    public var updated: PretixTime?
    /// Whether it is blocked now (blocked secrets; an unblocked one comes with `false`).
    public var blocked: Bool?

    public init(id: Int, secret: String, created: PretixTime? = nil, updated: PretixTime? = nil, blocked: Bool? = nil) {
        self.id = id
        self.secret = secret
        self.created = created
        self.updated = updated
        self.blocked = blocked
    }
}
