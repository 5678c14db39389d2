import Foundation
import NIOHTTP1

extension PretixClient {
    /// Initializes this station as the device pretix issued `token` for (single use).
    /// - Throws: ``PretixError/initializationRefused(_:)`` for a used or unknown token.
    public func initialize(token: String, identity: PretixDeviceIdentity) async throws(PretixError) -> PretixDevice {
        let response = try await exchange(.POST, "device/initialize", json: DeviceRequest(identity: identity, token: token), authorized: false)
        guard response.status == 200 else {
            if response.status == 400 { throw .initializationRefused(response.detail ?? "HTTP 400") }
            throw failure(response, doing: "initializing the device")
        }
        return try decode(PretixDevice.self, from: response, what: "device/initialize")
    }

    /// Tells pretix the station's software and hardware again (its version changed) with
    /// station details pretix shows on the device's page; pretix answers the device's name,
    /// gate and profile as they are now.
    public func update(identity: PretixDeviceIdentity, info: [String: String] = [:]) async throws(PretixError) -> PretixDevice {
        let response = try await exchange(.POST, "device/update", json: DeviceRequest(identity: identity, info: info))
        guard response.status == 200 else { throw failure(response, doing: "updating the device") }
        return try decode(PretixDevice.self, from: response, what: "device/update")
    }

    /// The device as pretix has it now, and pretix's version.
    public func info() async throws(PretixError) -> PretixDeviceInfo {
        let response = try await exchange(.GET, "device/info")
        guard response.status == 200 else { throw failure(response, doing: "reading the device's information") }
        return try decode(PretixDeviceInfo.self, from: response, what: "device/info")
    }

    /// What pretix suggests the device should admit now (unattended stations follow it).
    public func eventSelection(currentEvent: String?, currentSubevent: Int? = nil, currentList: Int? = nil) async throws(PretixError) -> PretixEventSelection {
        var query: [(String, String)] = []
        if let currentEvent { query.append(("current_event", currentEvent)) }
        if let currentSubevent { query.append(("current_subevent", String(currentSubevent))) }
        if let currentList { query.append(("current_checkinlist", String(currentList))) }
        let response = try await exchange(.GET, "device/eventselection", query: query)
        switch response.status {
        case 304: return .keep
        case 404: return .none
        case 200:
            let answer = try decode(Selection.self, from: response, what: "device/eventselection")
            return .switchTo(event: answer.event.slug, eventName: answer.event.name, subevent: answer.subevent, checkInList: answer.checkinlist)
        default: throw failure(response, doing: "asking which event to admit")
        }
    }

    /// Revokes this device for good (a deliberate disconnect): its token is dead at once.
    public func revoke() async throws(PretixError) {
        let response = try await exchange(.POST, "device/revoke", body: Data("{}".utf8))
        guard response.isSuccess else { throw failure(response, doing: "revoking the device") }
    }

    /// `device/initialize` (with the token) and `device/update` (with the info): the identity's
    /// fields beside them.
    private struct DeviceRequest: Encodable {
        var identity: PretixDeviceIdentity
        var token: String?
        var info: [String: String]?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encodeIfPresent(token, forKey: .token)
            try container.encodeIfPresent(info, forKey: .info)
            try identity.encodeFields(into: &container)
        }
    }

    private struct Selection: Decodable {
        var event: Event
        var subevent: Int?
        var checkinlist: Int?

        struct Event: Decodable {
            var slug: String
            var name: PretixText
        }
    }
}

/// The fields of initialize and update requests.
private enum Key: String, CodingKey {
    case token, info, hardwareBrand = "hardware_brand", hardwareModel = "hardware_model", osName = "os_name", osVersion = "os_version"
    case softwareBrand = "software_brand", softwareVersion = "software_version"
}

extension PretixDeviceIdentity {
    fileprivate func encodeFields(into container: inout KeyedEncodingContainer<Key>) throws {
        try container.encode(hardwareBrand, forKey: .hardwareBrand)
        try container.encode(hardwareModel, forKey: .hardwareModel)
        try container.encode(osName, forKey: .osName)
        try container.encode(osVersion, forKey: .osVersion)
        try container.encode(softwareBrand, forKey: .softwareBrand)
        try container.encode(softwareVersion, forKey: .softwareVersion)
    }
}
