/// Every error answer of the hub: an RFC 9457 problem document (`application/problem+json`).
///
/// Status codes: 400 malformed JSON, 401 missing/expired/revoked token, 403 role too low,
/// 404 unknown event or route, 409 conflicting state, 413 body too large, 422 a field is wrong
/// (``field`` names it; unknown fields too), 429 too many requests (see the `Retry-After` header).
public struct ProblemDocument: Sendable, Hashable, Codable, Error {
    /// A stable identifier of the kind of problem, e.g. `about:blank` or `urn:checkin-hub:invalid-field`.
    public var type: String
    /// Short summary, the same for every occurrence of the type.
    public var title: String
    public var status: Int
    /// What went wrong and what to do; never contains attendee data.
    public var detail: String?
    /// The offending field of the request (422), as a dotted path, e.g. `items.3.key.scannedAt`.
    public var field: String?

    public init(type: String = "about:blank", title: String, status: Int, detail: String? = nil, field: String? = nil) {
        self.type = type
        self.title = title
        self.status = status
        self.detail = detail
        self.field = field
    }
}
