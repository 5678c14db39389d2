import KioskStore

/// Whether the station can record: a full disk stops check-ins from being written (nothing
/// recorded before is lost), and the staff must know at once.
public enum StorageHealth: Sendable, Equatable {
    case ok
    case fault(String)

    /// After a write failed with `error`.
    public init(_ error: StoreError) {
        self = .fault(error.description)
    }
}
