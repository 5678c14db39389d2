/// What the station tells pretix about itself when it initializes and when its version changes
/// (pretix shows it on the device's page).
public struct PretixDeviceIdentity: Sendable, Hashable, Codable {
    public var hardwareBrand: String
    public var hardwareModel: String
    public var osName: String
    public var osVersion: String
    public var softwareBrand: String
    public var softwareVersion: String

    public init(hardwareBrand: String, hardwareModel: String, osName: String, osVersion: String,
                softwareBrand: String = "checkin-kiosk", softwareVersion: String) {
        self.hardwareBrand = hardwareBrand
        self.hardwareModel = hardwareModel
        self.osName = osName
        self.osVersion = osVersion
        self.softwareBrand = softwareBrand
        self.softwareVersion = softwareVersion
    }

    enum CodingKeys: String, CodingKey {
        case hardwareBrand = "hardware_brand", hardwareModel = "hardware_model", osName = "os_name", osVersion = "os_version"
        case softwareBrand = "software_brand", softwareVersion = "software_version"
    }
}

/// A gate of the organizer's venue a device stands at.
public struct PretixGate: Sendable, Hashable, Codable {
    public var id: Int
    public var name: String
    /// Not in initialize's answer on every pretix version.
    public var identifier: String?
}

/// The device as pretix initialized it: its organizer, id, serial, name, gate, security profile,
/// and its API token. The token is the device's credential: the station keeps it sealed.
public struct PretixDevice: Sendable, Hashable, Codable {
    public var organizer: String
    public var deviceID: Int
    public var uniqueSerial: String
    public var apiToken: String
    public var name: String
    public var gate: PretixGate?
    public var securityProfile: PretixSecurityProfile

    public init(organizer: String, deviceID: Int, uniqueSerial: String, apiToken: String, name: String, gate: PretixGate?,
                securityProfile: PretixSecurityProfile) {
        self.organizer = organizer
        self.deviceID = deviceID
        self.uniqueSerial = uniqueSerial
        self.apiToken = apiToken
        self.name = name
        self.gate = gate
        self.securityProfile = securityProfile
    }

    enum CodingKeys: String, CodingKey {
        case organizer, deviceID = "device_id", uniqueSerial = "unique_serial", apiToken = "api_token", name, gate
        case securityProfile = "security_profile"
    }
}

/// `device/info`: the device as pretix has it now, and pretix's version.
public struct PretixDeviceInfo: Sendable, Hashable, Decodable {
    public var device: Device
    public var server: Server

    public struct Device: Sendable, Hashable, Decodable {
        public var organizer: String
        public var deviceID: Int
        public var uniqueSerial: String
        public var name: String
        public var securityProfile: PretixSecurityProfile
        public var gate: PretixGate?

        enum CodingKeys: String, CodingKey {
            case organizer, deviceID = "device_id", uniqueSerial = "unique_serial", name, gate, securityProfile = "security_profile"
        }
    }

    public struct Server: Sendable, Hashable, Decodable {
        public var version: Version

        public struct Version: Sendable, Hashable, Decodable {
            /// `2026.8.0`
            public var pretix: String
            public var pretixNumeric: Int64

            enum CodingKeys: String, CodingKey { case pretix, pretixNumeric = "pretix_numeric" }
        }
    }
}

/// What pretix suggests an unattended device should admit (`device/eventselection`).
public enum PretixEventSelection: Sendable, Hashable {
    /// Keep the current event and list (304).
    case keep
    /// No suggestion (404).
    case none
    /// Switch to this event, date and list.
    case switchTo(event: String, eventName: PretixText, subevent: Int?, checkInList: Int?)
}
