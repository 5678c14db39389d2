/// What a pretix device may do, as its security profile in pretix says ([PX-SEC]: pretix's
/// `devicesecurity.py`). The station reads it from the initialization and calls nothing the
/// profile does not allow (pretix would answer 403).
public enum PretixSecurityProfile: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Everything a device may do (orders read and write).
    case full
    /// pretixSCAN: catalog, check-in lists, orders (the offline roster), redeem, uploads.
    case pretixscan
    /// pretixSCAN "online, no orders": no order download, so no offline roster.
    case pretixscanOnlineNoOrders
    /// pretixSCAN "online kiosk": no orders and no list positions; no search at the door.
    case pretixscanOnlineKiosk
    /// A profile this station does not know (a newer pretix, a plugin's): nothing is assumed allowed.
    case other(String)

    public init(_ identifier: String) {
        switch identifier {
        case "full": self = .full
        case "pretixscan": self = .pretixscan
        case "pretixscan_online_noorders": self = .pretixscanOnlineNoOrders
        case "pretixscan_online_kiosk": self = .pretixscanOnlineKiosk
        default: self = .other(identifier)
        }
    }

    /// pretix's identifier.
    public var identifier: String {
        switch self {
        case .full: "full"
        case .pretixscan: "pretixscan"
        case .pretixscanOnlineNoOrders: "pretixscan_online_noorders"
        case .pretixscanOnlineKiosk: "pretixscan_online_kiosk"
        case .other(let identifier): identifier
        }
    }

    public var description: String { identifier }

    /// The orders download is allowed: the station can hold the event's roster and decide offline.
    public var downloadsOrders: Bool {
        switch self {
        case .full, .pretixscan: true
        default: false
        }
    }

    /// A check-in list's positions may be listed.
    public var listsPositions: Bool {
        switch self {
        case .full, .pretixscan, .pretixscanOnlineNoOrders: true
        default: false
        }
    }

    /// Staff may search the guests at the door (pretix still answers the kiosk profile's
    /// searches; pretixSCAN hides the search there, and so does the station).
    public var offersSearch: Bool {
        switch self {
        case .full, .pretixscan, .pretixscanOnlineNoOrders: true
        default: false
        }
    }

    /// Scans may be redeemed online, uploaded from the queue, and annulled.
    public var redeems: Bool {
        switch self {
        case .other: false
        default: true
        }
    }

    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(identifier)
    }
}
