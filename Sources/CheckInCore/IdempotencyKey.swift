/// What makes a check-in unique: the device that recorded it, the guest, and the scan time in
/// milliseconds. Replaying the same key any number of times yields the same single record.
public struct IdempotencyKey: Sendable, Hashable, Codable, CustomStringConvertible {
    public var deviceID: String
    public var guestID: String
    public var scannedAt: Timestamp

    public init(deviceID: String, guestID: String, scannedAt: Timestamp) {
        self.deviceID = deviceID
        self.guestID = guestID
        self.scannedAt = scannedAt
    }

    /// `device/guest/milliseconds`: the form stored in databases and sent to the hub.
    public var description: String { "\(deviceID)/\(guestID)/\(scannedAt.milliseconds)" }

    /// Parses ``description``. Device and guest ids never contain `/`.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty, let ms = Int64(parts[2]) else { return nil }
        self.init(deviceID: String(parts[0]), guestID: String(parts[1]), scannedAt: Timestamp(milliseconds: ms))
    }
}
