/// The undo of one recorded check-in, named by its key. Its Codable form is the wire schema
/// `UndoUpload` of the hub API.
public struct Undo: Sendable, Hashable, Codable {
    public var key: IdempotencyKey
    public var undoneAt: Timestamp
    public var station: String
    public var operatorName: String
    public var reason: String?

    public init(key: IdempotencyKey, undoneAt: Timestamp, station: String, operatorName: String, reason: String? = nil) {
        self.key = key
        self.undoneAt = undoneAt
        self.station = station
        self.operatorName = operatorName
        self.reason = reason
    }
}
