import CheckInCore
import Foundation
import GRDB

/// The hub's guest ids in the station's own terms.
///
/// A hub knows the guests of an imported roster by their ticket codes, so a hub id is a ticket
/// secret and never stored as one: the station's id of a guest the hub knows is `h` and 32 hex
/// digits of the hub id's keyed digest (the store's code key, over `"guest " + id`: ticket codes
/// never hold a space, so no code has this digest), the same on every page and after every
/// restart. The hub's id is kept sealed in the guest's row (`guests.hub_id`), or not at all when
/// it is the ticket code (sealed with the guest already), and given back only to upload
/// (``KioskDatabase/hubTerms(_:_:)``). Check-in keys are built from the station's id.
///
/// Migration 0011 re-keys stores written before: `'h' || lower(hex(kiosk_code_digest('guest ' || id)))`.
struct HubGuestIDs: Sendable {
    let cipher: GuestCipher

    /// The station's id of the guest the hub calls `hubID`.
    func stationID(_ hubID: String) -> String {
        let digest = cipher.codeDigest("guest " + hubID)
        var text = "h"
        text.reserveCapacity(1 + digest.count * 2)
        for byte in digest {
            text.append(Self.hexDigits[Int(byte >> 4)])
            text.append(Self.hexDigits[Int(byte & 0x0F)])
        }
        return text
    }

    private static let hexDigits = Array("0123456789abcdef")

    /// What the guest's row keeps of its hub id: nothing when it is the guest's ticket code (the
    /// code is sealed with the guest), else the id sealed.
    func sealedHubID(_ hubID: String, code: String) -> Data? {
        hubID == code ? nil : cipher.seal(hubID)
    }

    /// A check-in key of the hub (`device/hub-id/ms`) as the station stores it.
    func stationKey(_ key: IdempotencyKey) -> IdempotencyKey {
        IdempotencyKey(deviceID: key.deviceID, guestID: stationID(key.guestID), scannedAt: key.scannedAt)
    }

    /// A page of roster changes in the hub's terms, in the station's: every guest id and check-in
    /// key, with each guest's hub id to keep (`hubIDs`, by position in `guests`).
    func stationTerms(_ delta: RosterDelta) -> (delta: RosterDelta, hubIDs: [Data?]) {
        var mapped = delta
        var hubIDs: [Data?] = []
        hubIDs.reserveCapacity(delta.guests.count)
        for index in mapped.guests.indices {
            let hubID = mapped.guests[index].id
            hubIDs.append(sealedHubID(hubID, code: mapped.guests[index].code.value))
            mapped.guests[index].id = stationID(hubID)
        }
        mapped.deletedGuestIDs = delta.deletedGuestIDs.map(stationID)
        mapped.checkIns = delta.checkIns.map { checkIn in
            var checkIn = checkIn
            checkIn.key = stationKey(checkIn.key)
            return checkIn
        }
        mapped.undone = delta.undone.map { item in (IdempotencyKey(item.key).map { stationKey($0).description } ?? item.key, item.at) }
        mapped.merges = delta.merges.map { GuestMerge(guestID: stationID($0.guestID), into: stationID($0.into)) }
        return (mapped, hubIDs)
    }
}

extension KioskDatabase {
    /// The station's id of the guest the hub calls `hubID` (``HubGuestIDs``).
    public func stationGuestID(hubID: String) -> String {
        HubGuestIDs(cipher: keys.cipher).stationID(hubID)
    }

    /// The hub's id of station guest `id`, as uploads name it: its sealed hub id, its ticket code
    /// for a guest the hub knows by code, its own id for a guest no hub knows yet (a local import:
    /// the hub answers "unknown" until a roster pull matches it by code).
    static let hubIDSQL = """
        SELECT CASE WHEN hub_id IS NOT NULL THEN kiosk_open(hub_id) WHEN from_hub THEN kiosk_guest_field(sealed, 'code') ELSE id END
        FROM guests WHERE id = ?
        """

    /// A queued change in the hub's terms: each station guest id it names becomes the hub's.
    static func hubTerms(_ db: Database, _ change: OutboxChange) throws -> OutboxChange {
        guard let stationID = change.guestID else { return change }
        let hubID = try String.fetchOne(db, sql: hubIDSQL, arguments: [stationID]) ?? stationID
        return hubID == stationID ? change : change.rekeyed(from: stationID, to: hubID)
    }
}

extension RosterStore {
    /// The hub's id of station guest `id` (as uploads name it), `nil` for an unknown guest.
    public func hubID(ofGuest id: String) throws(StoreError) -> String? {
        try requireUsable()
        return try wrap { try writer.read { db in try String.fetchOne(db, sql: KioskDatabase.hubIDSQL, arguments: [id]) } }
    }
}
