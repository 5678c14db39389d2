/// pretix's answer to a redeem: it admitted the scan, refused it with a reason, or needs
/// answers first. An unknown secret is a refusal (`invalid`), not an error.
public enum PretixRedeemResult: Sendable, Hashable {
    case ok(PretixRedeemed)
    case refused(PretixReason, explanation: String?, position: PretixRedeemed.Position?)
    /// Questions to answer before admission (only asked when the station says it supports them).
    case incomplete(questions: [PretixQuestion], position: PretixRedeemed.Position?)

    /// pretix's word for it: `ok`, `incomplete`, or the reason.
    public var outcome: String {
        switch self {
        case .ok: "ok"
        case .refused(let reason, _, _): reason.code
        case .incomplete: "incomplete"
        }
    }
}

/// What pretix tells about an admitted scan.
public struct PretixRedeemed: Sendable, Hashable, Decodable {
    public var requireAttention: Bool
    /// Texts for the door staff (order, variation, product).
    public var checkinTexts: [String]
    public var position: Position?

    /// The position as a redeem answer shows it: its check-ins are those *before* this scan.
    public struct Position: Sendable, Hashable, Decodable {
        public var id: Int
        public var order: String
        public var item: Int
        public var attendeeName: String?
        public var checkins: [PretixCheckIn]
        public var answers: [PretixAnswer]

        enum CodingKeys: String, CodingKey { case id, order, item, attendeeName = "attendee_name", checkins, answers }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(Int.self, forKey: .id)
            order = try container.decode(String.self, forKey: .order)
            item = try container.decode(Int.self, forKey: .item)
            attendeeName = try container.decodeIfPresent(String.self, forKey: .attendeeName)
            checkins = try container.decodeIfPresent([PretixCheckIn].self, forKey: .checkins) ?? []
            // Expanded answers (`?expand=answers.question`) carry the question as an object.
            answers = (try? container.decodeIfPresent([PretixAnswer].self, forKey: .answers)) ?? []
        }
    }

    enum CodingKeys: String, CodingKey { case requireAttention = "require_attention", checkinTexts = "checkin_texts", position }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        requireAttention = try container.decodeIfPresent(Bool.self, forKey: .requireAttention) ?? false
        checkinTexts = try container.decodeIfPresent([String].self, forKey: .checkinTexts) ?? []
        position = try container.decodeIfPresent(Position.self, forKey: .position)
    }
}

/// pretix's answer to an annul (`checkinrpc/annul`).
public enum PretixAnnulResult: Sendable, Hashable {
    /// The check-in is annulled.
    case annulled
    /// pretix knows no check-in of this device with that nonce (never uploaded, or another device's).
    case unknownNonce
    /// pretix will not annul it (not successful, too old, another device's), in its words.
    case refused(String)
}
