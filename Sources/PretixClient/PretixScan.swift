/// One scan sent to pretix to decide (`checkinrpc/redeem`) or to record (the queued upload).
public struct PretixScan: Sendable, Hashable, Codable {
    /// What the scanner read (the ticket's secret).
    public var secret: String
    public var type: PretixScanType
    /// The scan's random name, the same through online redeem, fallback, upload and annul.
    public var nonce: PretixNonce
    /// When it was scanned: sent with a queued scan (an online redeem is pretix's own time).
    public var datetime: PretixTime
    /// Answers to questions asked at the door, by question id.
    public var answers: [String: String]
    /// Staff confirmed "admit anyway?" for an unpaid ticket.
    public var ignoreUnpaid: Bool
    /// `barcode` for a scanned code (pretix's source types).
    public var sourceType: String

    public init(secret: String, type: PretixScanType = .entry, nonce: PretixNonce, datetime: PretixTime, answers: [String: String] = [:],
                ignoreUnpaid: Bool = false, sourceType: String = "barcode") {
        self.secret = secret
        self.type = type
        self.nonce = nonce
        self.datetime = datetime
        self.answers = answers
        self.ignoreUnpaid = ignoreUnpaid
        self.sourceType = sourceType
    }
}

/// A scan as pretix's redeem calls read it. Online (`checkinrpc/redeem`, with `lists`): pretix
/// decides, at its own time. Queued (the list's own redeem, no `lists`: the secret is in the
/// path): forced, at the scan's original time, questions not asked.
struct RedeemBody: Encodable {
    var scan: PretixScan
    var lists: [Int]?
    var questionsSupported: Bool

    enum CodingKeys: String, CodingKey {
        case secret, lists, datetime, type, sourceType = "source_type", force, ignoreUnpaid = "ignore_unpaid", nonce, answers
        case questionsSupported = "questions_supported", canceledSupported = "canceled_supported", useOrderLocale = "use_order_locale"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if let lists {
            try container.encode(scan.secret, forKey: .secret)
            try container.encode(lists, forKey: .lists)
        } else {
            try container.encode(scan.datetime, forKey: .datetime)
        }
        try container.encode(lists == nil, forKey: .force)
        try container.encode(scan.type, forKey: .type)
        try container.encode(scan.sourceType, forKey: .sourceType)
        try container.encode(scan.ignoreUnpaid, forKey: .ignoreUnpaid)
        try container.encode(scan.nonce, forKey: .nonce)
        try container.encode(scan.answers, forKey: .answers)
        try container.encode(questionsSupported, forKey: .questionsSupported)
        try container.encode(true, forKey: .canceledSupported)
        try container.encode(false, forKey: .useOrderLocale)
    }
}
