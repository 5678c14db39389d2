import Foundation

/// pretix's own decision on a scan, asked as a device through `checkinrpc/redeem`: what a test
/// compares a station's decision with (on a twin list, so the station's own list stays untouched).
extension PretixAPI {
    /// Redeems `secret` on list `list` of organizer `organizer` as an entry (or `exit`), with a
    /// fresh nonce, questions supported, unpaid tickets not admitted.
    public func redeem(organizer: String, secret: String, list: Int, type: String = "entry",
                       answers: [String: String] = [:]) async throws -> PretixRedeemed {
        let request = RedeemRequest(secret: secret, lists: [list], type: type, nonce: "rig" + UUID().uuidString.prefix(23), answers: answers)
        let answer = try await post("/api/v1/organizers/\(organizer)/checkinrpc/redeem/", request)
        guard [201, 400, 404].contains(answer.status) else { throw PretixFailure("redeem answered \(answer.status): \(answer.text)") }
        return try answer.decode(PretixRedeemed.self, expecting: nil)
    }
}

/// pretix's answer to a redeem: `ok`, `error` with a reason, or `incomplete` with questions.
public struct PretixRedeemed: Decodable, Sendable, CustomStringConvertible {
    public var status: String
    /// `unpaid`, `canceled`, `blocked`, `invalid_time`, `product`, `rules`, `revoked`…
    public var reason: String?
    public var reasonExplanation: String?
    public var requireAttention: Bool?
    public var checkinTexts: [String]?
    /// The questions to answer first (`incomplete`).
    public var questions: [Question]?
    public var position: Position?

    /// `ok`, `incomplete`, or the reason of an error.
    public var outcome: String { status == "error" ? reason ?? "error" : status }

    public var description: String { "\(outcome)\(reasonExplanation.map { " (\($0))" } ?? "")" }

    public struct Question: Decodable, Sendable {
        public var id: Int
        public var identifier: String
    }

    public struct Position: Decodable, Sendable {
        public var id: Int
        public var answers: [Answer]?
    }

    public struct Answer: Decodable, Sendable {
        /// The question's id.
        public var question: Int
        public var answer: String
    }
}

private struct RedeemRequest: Encodable {
    var secret: String
    var lists: [Int]
    var type: String
    var nonce: String
    var answers: [String: String]
    var sourceType = "barcode"
    var force = false
    var ignoreUnpaid = false
    var questionsSupported = true
    var canceledSupported = true
}
