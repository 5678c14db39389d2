import CheckInCore
import GRDB

/// A change waiting for the hub.
public struct OutboxEntry: Sendable, Hashable {
    public var id: Int64
    /// `checkin`, `walkin` or `undo`.
    public var kind: String
    public var ref: String
    /// The JSON body to upload.
    public var payload: String
    public var sortAt: Timestamp
    public var attempts: Int
    public var lastError: String?
}

extension KioskDatabase {
    /// Pending changes in replay order: scan time, then insertion.
    public func pendingOutbox(limit: Int = 500) throws(StoreError) -> [OutboxEntry] {
        try requireUsable()
        return try wrap {
            try writer.read { db in
                try Row.fetchAll(db, sql: """
                    SELECT id, kind, ref, payload, sort_at, attempts, last_error FROM outbox
                    WHERE state = 'pending' ORDER BY sort_at, id LIMIT ?
                    """, arguments: [limit]).map {
                    OutboxEntry(id: $0["id"], kind: $0["kind"], ref: $0["ref"], payload: $0["payload"],
                                sortAt: Timestamp(milliseconds: $0["sort_at"]), attempts: $0["attempts"], lastError: $0["last_error"])
                }
            }
        }
    }
}
