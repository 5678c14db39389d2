import CheckInCore
import Foundation
import GRDB

/// The access rules a station keeps itself: which access types may come back in (for a roster
/// imported here; a hub's roster has the hub's types) and which types this entrance admits.
extension RosterStore {
    /// Marks the access type named `name` (or with that id) re-entry or single entry.
    /// - Throws: ``StoreError/invalid(field:reason:)`` naming the roster's types when there is no
    ///   such type, or saying where to change it when the types come from a hub.
    public func setReentry(accessType name: String, _ reentry: Bool) async throws(StoreError) -> AccessType {
        try requireUsable()
        if let hub = try database.setting(.hubURL) {
            throw .invalid(field: "Access type", reason: "this station's access types come from its hub (\(hub)); change it there: "
                + "checkin-hub access-type add --event EVENT --name \"\(Sanitized.text(name))\"\(reentry ? " --reentry" : "")")
        }
        return try await wrap {
            try await writer.write { db in
                var type = try Self.accessType(db, named: name)
                type.reentry = reentry
                try AccessTypeRecord(type, updatedAt: .now()).upsert(db)
                return type
            }
        }
    }

    /// Sets which access types this entrance admits (by name or id); `nil` admits every type.
    /// Others are refused as "not valid for this entrance".
    public func setAdmittedAccessTypes(_ names: [String]?) async throws(StoreError) -> [AccessType]? {
        try requireUsable()
        return try await wrap {
            try await writer.write { db in
                guard let names else {
                    try db.execute(sql: "DELETE FROM settings WHERE key = ?", arguments: [KioskDatabase.SettingKey.admittedAccessTypes.rawValue])
                    return nil
                }
                guard !names.isEmpty else { throw StoreError.invalid(field: "Admitted access types", reason: "name at least one (or admit all)") }
                let types = try names.map { try Self.accessType(db, named: $0) }
                try KioskDatabase.put(db, KioskDatabase.SettingKey.admittedAccessTypes.rawValue, types.map(\.id).joined(separator: ","))
                return types
            }
        }
    }

    /// The access types this entrance admits; `nil`: every type.
    public func admittedAccessTypes() throws(StoreError) -> [AccessType]? {
        try requireUsable()
        return try wrap {
            try writer.read { db in
                try KioskDatabase.admittedAccessTypes(db).map { ids in
                    try ids.sorted().map { id in try AccessTypeRecord.fetchAccessType(db, id: id) ?? AccessType(id: id, name: id) }
                }
            }
        }
    }

    /// The type with this name (exactly, else ignoring case) or id.
    static func accessType(_ db: Database, named name: String) throws -> AccessType {
        let all = try AccessTypeRecord.order(AccessTypeRecord.CodingKeys.name).fetchAll(db).map(\.accessType)
        let wanted = name.trimmingCharacters(in: .whitespaces)
        if let found = all.first(where: { $0.name == wanted }) ?? all.first(where: { $0.name.lowercased() == wanted.lowercased() })
            ?? all.first(where: { $0.id == wanted }) {
            return found
        }
        let known = all.isEmpty ? "none yet: import a roster first (kiosk import FILE)" : all.map { Sanitized.text($0.name) }.joined(separator: ", ")
        throw StoreError.invalid(field: "Access type", reason: "no access type \"\(Sanitized.text(wanted))\" in this roster (it has: \(known))")
    }
}
