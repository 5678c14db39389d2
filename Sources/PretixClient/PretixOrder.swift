/// An order with its positions, as the orders download gives it.
public struct PretixOrder: Sendable, Hashable, Codable {
    public var code: String
    public var status: Status
    public var requireApproval: Bool
    /// A pending order whose tickets are valid before payment.
    public var validIfPending: Bool
    public var checkinAttention: Bool
    public var checkinText: String?
    /// The attendee's language: the door may answer in it.
    public var locale: String?
    /// When it was placed: the resume point of an interrupted first download.
    public var datetime: PretixTime
    /// When anything about it changed (a check-in at another door included).
    public var lastModified: PretixTime
    public var positions: [PretixPosition]

    /// pretix's order status.
    public enum Status: String, Sendable, Hashable, Codable {
        case pending = "n"
        case paid = "p"
        case expired = "e"
        case canceled = "c"
    }

    enum CodingKeys: String, CodingKey {
        case code, status, requireApproval = "require_approval", validIfPending = "valid_if_pending"
        case checkinAttention = "checkin_attention", checkinText = "checkin_text", locale, datetime
        case lastModified = "last_modified", positions
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        code = try container.decode(String.self, forKey: .code)
        status = try container.decode(Status.self, forKey: .status)
        requireApproval = try container.decodeIfPresent(Bool.self, forKey: .requireApproval) ?? false
        validIfPending = try container.decodeIfPresent(Bool.self, forKey: .validIfPending) ?? false
        checkinAttention = try container.decodeIfPresent(Bool.self, forKey: .checkinAttention) ?? false
        checkinText = try container.decodeIfPresent(String.self, forKey: .checkinText)
        locale = try container.decodeIfPresent(String.self, forKey: .locale)
        datetime = try container.decode(PretixTime.self, forKey: .datetime)
        lastModified = try container.decode(PretixTime.self, forKey: .lastModified)
        positions = try container.decode([PretixPosition].self, forKey: .positions)
    }
}

/// One ticket (or add-on) of an order: the guest at the door.
public struct PretixPosition: Sendable, Hashable, Codable {
    public var id: Int
    public var order: String
    public var positionid: Int
    public var item: Int
    public var variation: Int?
    public var subevent: Int?
    /// The position this one is an add-on to.
    public var addonTo: Int?
    /// The ticket's QR code content.
    public var secret: String
    public var attendeeName: String?
    public var company: String?
    public var attendeeEmail: String?
    /// Why the organizer blocked it (`["admin"]`), or `nil`.
    public var blocked: [String]?
    public var validFrom: PretixTime?
    public var validUntil: PretixTime?
    /// Every successful check-in on every list, from every device.
    public var checkins: [PretixCheckIn]
    public var printLogs: [PretixPrintLogEntry]
    public var answers: [PretixAnswer]
    /// Canceled positions of a partly canceled order (only with `include_canceled_positions`).
    public var canceled: Bool

    enum CodingKeys: String, CodingKey {
        case id, order, positionid, item, variation, subevent, addonTo = "addon_to", secret, attendeeName = "attendee_name"
        case company, attendeeEmail = "attendee_email", blocked, validFrom = "valid_from", validUntil = "valid_until"
        case checkins, printLogs = "print_logs", answers, canceled
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        order = try container.decode(String.self, forKey: .order)
        positionid = try container.decode(Int.self, forKey: .positionid)
        item = try container.decode(Int.self, forKey: .item)
        variation = try container.decodeIfPresent(Int.self, forKey: .variation)
        subevent = try container.decodeIfPresent(Int.self, forKey: .subevent)
        addonTo = try container.decodeIfPresent(Int.self, forKey: .addonTo)
        secret = try container.decode(String.self, forKey: .secret)
        attendeeName = try container.decodeIfPresent(String.self, forKey: .attendeeName)
        company = try container.decodeIfPresent(String.self, forKey: .company)
        attendeeEmail = try container.decodeIfPresent(String.self, forKey: .attendeeEmail)
        blocked = try container.decodeIfPresent([String].self, forKey: .blocked)
        validFrom = try container.decodeIfPresent(PretixTime.self, forKey: .validFrom)
        validUntil = try container.decodeIfPresent(PretixTime.self, forKey: .validUntil)
        checkins = try container.decodeIfPresent([PretixCheckIn].self, forKey: .checkins) ?? []
        printLogs = try container.decodeIfPresent([PretixPrintLogEntry].self, forKey: .printLogs) ?? []
        answers = try container.decodeIfPresent([PretixAnswer].self, forKey: .answers) ?? []
        canceled = try container.decodeIfPresent(Bool.self, forKey: .canceled) ?? false
    }
}

/// A successful check-in pretix recorded for a position.
public struct PretixCheckIn: Sendable, Hashable, Codable {
    public var id: Int?
    public var datetime: PretixTime
    /// The check-in list's id.
    public var list: Int
    public var type: PretixScanType
    public var gate: Int?
    /// The device's `device_id`, when a device made it.
    public var deviceID: Int?
    public var autoCheckedIn: Bool?

    enum CodingKeys: String, CodingKey {
        case id, datetime, list, type, gate, deviceID = "device_id", autoCheckedIn = "auto_checked_in"
    }
}

/// A badge or ticket printed for a position, on any device.
public struct PretixPrintLogEntry: Sendable, Hashable, Codable {
    public var id: Int?
    public var successful: Bool?
    public var datetime: PretixTime
    public var source: String?
    /// `badge`, `ticket`…
    public var type: String
    public var deviceID: Int?

    enum CodingKeys: String, CodingKey { case id, successful, datetime, source, type, deviceID = "device_id" }
}

/// A position's answer to a question.
public struct PretixAnswer: Sendable, Hashable, Codable {
    /// The question's id.
    public var question: Int
    public var answer: String
    /// The chosen options' ids (choice questions).
    public var options: [Int]?
}

/// Which way a scan goes through the door.
public enum PretixScanType: String, Sendable, Hashable, Codable {
    case entry
    case exit
}
