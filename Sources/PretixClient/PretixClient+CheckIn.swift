import CheckInCore
import Foundation
import NIOHTTP1

extension PretixClient {
    /// Asks pretix to decide a scan now (`checkinrpc/redeem`): admitted, refused with a reason
    /// (an unknown secret is `invalid`), or questions to answer first.
    /// - Parameters:
    ///   - lists: the check-in lists to redeem on, at most one per event.
    ///   - questionsSupported: the station can ask questions; when `false` pretix admits
    ///     without asking them.
    public func redeem(_ scan: PretixScan, lists: [Int], questionsSupported: Bool) async throws(PretixError) -> PretixRedeemResult {
        let body = RedeemBody(scan: scan, lists: lists, questionsSupported: questionsSupported)
        let response = try await exchange(.POST, try organizerPath("checkinrpc/redeem/"), json: body)
        return try redeemResult(response, doing: "redeeming a scan")
    }

    /// Annuls this device's successful check-in with `nonce` (pretix allows it for the device
    /// that made it, within minutes).
    public func annul(nonce: PretixNonce, lists: [Int], datetime: PretixTime? = nil) async throws(PretixError) -> PretixAnnulResult {
        let response = try await exchange(.POST, try organizerPath("checkinrpc/annul/"), json: Annul(lists: lists, nonce: nonce, datetime: datetime))
        switch response.status {
        case 200, 201: return .annulled
        case 404: return .unknownNonce
        case 400: return .refused(response.detail ?? "HTTP 400")
        default: throw failure(response, doing: "annulling a check-in")
        }
    }

    /// A redeem answer as a result: 201 admitted; 400 refused or incomplete; 404 unknown.
    func redeemResult(_ response: PretixResponse, doing what: String) throws(PretixError) -> PretixRedeemResult {
        switch response.status {
        case 200, 201, 400, 404: break
        default: throw failure(response, doing: what)
        }
        let answer = try decode(RedeemAnswer.self, from: response, what: what)
        switch answer.status {
        case "ok" where response.isSuccess:
            return .ok(try decode(PretixRedeemed.self, from: response, what: what))
        case "incomplete":
            return .incomplete(questions: answer.questions ?? [], position: answer.position)
        default:
            return .refused(PretixReason(answer.reason ?? "error"), explanation: answer.reasonExplanation.map(PretixClient.cleaned),
                            position: answer.position)
        }
    }

    /// Outside text for the door staff: no control characters, not endless.
    static func cleaned(_ text: String) -> String {
        String(Sanitized.text(text).prefix(500))
    }

    private struct Annul: Encodable {
        var lists: [Int]
        var nonce: PretixNonce
        var datetime: PretixTime?
    }

    /// The fields every redeem answer has, whatever its outcome.
    struct RedeemAnswer: Decodable {
        var status: String
        var reason: String?
        var reasonExplanation: String?
        var questions: [PretixQuestion]?
        var position: PretixRedeemed.Position?

        enum CodingKeys: String, CodingKey { case status, reason, reasonExplanation = "reason_explanation", questions, position }
    }
}
