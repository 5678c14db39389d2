import CheckInCore
import Foundation
import GRDB

/// A guest registered at the door.
public struct WalkInRequest: Sendable {
    public var name: String
    public var email: String
    public var company: String
    public var accessTypeID: String
    public var operatorName: String?
    public var station: String?
    public var at: Timestamp
    /// A badge, as the policy says, committed with the walk-in.
    public var badge: BadgeRequest?

    public init(name: String, email: String = "", company: String = "", accessTypeID: String,
                operatorName: String? = nil, station: String? = nil, at: Timestamp = .now(), badge: BadgeRequest? = nil) {
        self.badge = badge
        self.name = name
        self.email = email
        self.company = company
        self.accessTypeID = accessTypeID
        self.operatorName = operatorName
        self.station = station
        self.at = at
    }
}

extension CheckInStore {
    /// Registers a walk-in: creates the guest with a new ticket code, checks them in, and queues
    /// both for the hub, in one transaction. Works offline.
    public func addWalkIn(_ request: WalkInRequest) async throws(StoreError) -> CheckInResult {
        try requireUsable()
        let name = Sanitized.text(request.name).trimmingCharacters(in: .whitespacesAndNewlines)
        let email = request.email.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { throw .invalid(field: "Name", reason: "enter the guest's name") }
        guard name.count <= 200 else { throw .invalid(field: "Name", reason: "at most 200 characters") }
        if !email.isEmpty {
            let parts = email.split(separator: "@", omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !email.contains(where: \.isWhitespace) else {
                throw .invalid(field: "E-mail", reason: "not a valid address (leave it empty if unknown)")
            }
        }
        let deviceID = database.deviceID
        let (station, operatorName) = try database.identity(station: request.station, operatorName: request.operatorName)
        let company = Sanitized.text(request.company).trimmingCharacters(in: .whitespacesAndNewlines)
        let cipher = self.cipher
        return try await wrap {
            try await writer.write { db in
                guard try AccessTypeRecord.fetchAccessType(db, id: request.accessTypeID) != nil else {
                    throw StoreError.invalid(field: "Access type", reason: "unknown access type \(request.accessTypeID)")
                }
                // The hub knows a walk-in by the id the station gives it; the station by its own
                // id of that, as for every guest a hub knows (HubGuestIDs).
                let hubID = UUID().uuidString.lowercased()
                let ids = HubGuestIDs(cipher: cipher)
                let guestID = ids.stationID(hubID)
                let code = Self.newWalkInCode()
                let guest = Guest(id: guestID, code: TicketCode(stored: code), name: name, email: email, company: company,
                                  accessTypeID: request.accessTypeID, walkIn: true)
                try GuestRecord(guest, sealingWith: cipher, updatedAt: request.at, fromHub: false, hubID: ids.sealedHubID(hubID, code: code)).insert(db)
                // The walk-in sorts just before its own check-in so the hub learns the guest first.
                try KioskDatabase.enqueue(db, .walkIn(WalkIn(
                    guestID: guestID, code: code, name: name, email: email, company: company, accessTypeID: request.accessTypeID,
                    deviceID: deviceID, station: station, operatorName: operatorName, createdAt: request.at)))
                try AuditEntry(at: request.at, deviceID: deviceID, station: station, operatorName: operatorName, source: .station(.walkIn),
                               action: .walkIn, code: code, guestID: guestID).insert(db)
                return try Self.checkIn(db, request: CheckInRequest(rawCode: code, source: .walkIn, at: request.at, badge: request.badge),
                                        deviceID: deviceID, station: station, operatorName: operatorName)
            }
        }
    }

    /// A ticket code for a walk-in: `W-` and 8 characters that cannot be confused when typed.
    static func newWalkInCode() -> String {
        let alphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
        return "W-" + String((0..<8).map { _ in alphabet.randomElement()! })
    }

    /// Undoes this station's most recent check-in that is not undone yet (audited, queued for
    /// the hub). Returns the undone check-in, or `nil` when there is nothing to undo.
    ///
    /// Refused with ``StoreError/undoBeyondHubWindow(windowMilliseconds:ageMilliseconds:)``,
    /// nothing changed, when the hub already has the check-in and would refuse the undo as older
    /// than its station undo time (``CheckInCore/StationUndoWindow``).
    public func undoLastCheckIn(operatorName: String? = nil, at: Timestamp = .now()) async throws(StoreError) -> (checkIn: CheckIn, guest: GuestDetails?)? {
        try requireUsable()
        let deviceID = database.deviceID
        let (station, operatorName) = try database.identity(station: nil, operatorName: operatorName)
        return try await wrap {
            try await writer.write { db in
                guard let record = try CheckInRecord.fetchOne(db, sql: """
                    SELECT \(CheckInRecord.columns) FROM check_ins
                    WHERE device_id = ? AND origin = 'local' AND undone_at IS NULL ORDER BY scanned_at DESC, id DESC LIMIT 1
                    """, arguments: [deviceID]) else { return nil }
                let checkIn = record.checkIn
                if let window = try KioskDatabase.stationUndoWindow(db) {
                    let waiting = try Bool.fetchOne(db, sql: """
                        SELECT EXISTS (SELECT 1 FROM outbox WHERE kind = ? AND ref = ? AND state = 'pending')
                        """, arguments: [OutboxChange.Kind.checkIn.rawValue, checkIn.key.description]) ?? false
                    if case .beyondHubWindow(let limit, let age) = window.decide(scannedAt: checkIn.key.scannedAt, uploaded: !waiting, now: at) {
                        throw StoreError.undoBeyondHubWindow(windowMilliseconds: limit, ageMilliseconds: age)
                    }
                }
                try db.execute(sql: "UPDATE check_ins SET undone_at = ? WHERE id = ?", arguments: [at.milliseconds, record.id])
                try KioskDatabase.enqueue(db, .undo(Undo(key: checkIn.key, undoneAt: at, station: station, operatorName: operatorName)))
                try AuditEntry(at: at, deviceID: deviceID, station: station, operatorName: operatorName, source: .station(.typed),
                               action: .undo, guestID: checkIn.guestID, detail: checkIn.key.description).insert(db)
                let guest = try OpenedGuestRecord.fetchGuest(db, id: checkIn.guestID).map { try GuestDetails.fetch(db, guest: $0) }
                return (checkIn, guest)
            }
        }
    }
}
