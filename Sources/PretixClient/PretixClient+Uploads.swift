import NIOHTTP1

extension PretixClient {
    /// Uploads a scan decided at the door while pretix was not asked (pretixSCAN's queued
    /// upload): on the list's own redeem, forced, with the scan's original time and nonce, so
    /// pretix records it once however often it is sent, even where it would refuse it now.
    /// - Returns: recorded, or refused by pretix for good (400, 404: pretix logged it; never
    ///   send it again).
    /// - Throws: what is worth retrying later (``PretixError/isTransient``), a revoked device.
    public func upload(_ scan: PretixScan, event: String, list: Int) async throws(PretixError) -> PretixUploadResult {
        let path = try eventPath(event, "checkinlists/\(list)/positions/" + Self.percentEncoded(scan.secret) + "/redeem/")
        let response = try await exchange(.POST, path, json: RedeemBody(scan: scan, lists: nil, questionsSupported: false))
        switch response.status {
        case 200, 201, 400, 404: break
        default: throw failure(response, doing: "uploading a scan")
        }
        let answer = try? decode(RedeemAnswer.self, from: response, what: "an uploaded scan")
        if response.isSuccess && answer?.status == "ok" { return .recorded }
        return .refused(PretixReason(answer?.reason ?? "error"), explanation: answer?.reasonExplanation.map(Self.cleaned))
    }

    /// Reports a scan the station refused, for pretix's list of failed check-ins.
    public func upload(_ failed: PretixFailedCheckIn, event: String, list: Int, idempotencyKey: PretixNonce) async throws(PretixError) -> PretixSideCallResult {
        let response = try await exchange(.POST, try eventPath(event, "checkinlists/\(list)/failed_checkins/"), json: failed,
                                          idempotencyKey: idempotencyKey)
        return try sideCallResult(response, doing: "reporting a refused scan")
    }

    /// Records that the station printed position `position`'s badge (so other devices' "print
    /// once" sees it).
    public func uploadPrintLog(position: Int, event: String, datetime: PretixTime, idempotencyKey: PretixNonce) async throws(PretixError) -> PretixSideCallResult {
        let response = try await exchange(.POST, try eventPath(event, "orderpositions/\(position)/printlog/"),
                                          json: PrintLog(datetime: datetime), idempotencyKey: idempotencyKey)
        return try sideCallResult(response, doing: "recording a printed badge")
    }

    /// Done, refused for good (a 4xx pretix will answer the same every time), or an error: a
    /// revoked device, the profile, quiet asked for (429, or 409 while the same key is in
    /// flight), pretix failing.
    func sideCallResult(_ response: PretixResponse, doing what: String) throws(PretixError) -> PretixSideCallResult {
        if response.isSuccess { return .done }
        switch response.status {
        case 401, 403, 409, 429, 500...: throw failure(response, doing: what)
        default: return .refused(status: response.status, detail: response.detail ?? "HTTP \(response.status)")
        }
    }

    private struct PrintLog: Encodable {
        var source = "checkin-kiosk"
        var type = "badge"
        var info: [String: String] = [:]
        var datetime: PretixTime
    }
}
