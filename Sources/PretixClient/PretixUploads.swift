import Foundation

/// What became of a queued scan's upload: recorded, or refused by pretix for good (it logged
/// the refusal itself; never sent again). Anything else is an error to retry.
public enum PretixUploadResult: Sendable, Hashable {
    case recorded
    case refused(PretixReason, explanation: String?)
}

/// What became of a side call (a failed check-in, a print log): done, or refused for good.
public enum PretixSideCallResult: Sendable, Hashable {
    case done
    case refused(status: Int, detail: String)
}

/// A scan the station refused, for pretix's list of failed check-ins.
public struct PretixFailedCheckIn: Sendable, Hashable, Codable {
    /// What was scanned (`binary:` and base64 when it holds control characters).
    public var rawBarcode: String
    public var errorReason: PretixReason
    public var datetime: PretixTime
    public var type: PretixScanType
    public var nonce: PretixNonce
    public var position: Int?
    public var item: Int?
    public var variation: Int?
    public var subevent: Int?

    public init(scanned: String, reason: PretixReason, datetime: PretixTime, type: PretixScanType, nonce: PretixNonce,
                position: Int? = nil, item: Int? = nil, variation: Int? = nil, subevent: Int? = nil) {
        rawBarcode = Self.rawBarcode(scanned)
        errorReason = reason
        self.datetime = datetime
        self.type = type
        self.nonce = nonce
        self.position = position
        self.item = item
        self.variation = variation
        self.subevent = subevent
    }

    /// pretixSCAN's form: as read, or `binary:` and base64 of its bytes when it holds control characters.
    static func rawBarcode(_ scanned: String) -> String {
        guard scanned.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0.properties.generalCategory == .format })
        else { return scanned }
        return "binary:" + Data(scanned.utf8).base64EncodedString()
    }

    enum CodingKeys: String, CodingKey {
        case rawBarcode = "raw_barcode", errorReason = "error_reason", datetime, type, nonce, position, item, variation, subevent
    }
}
