import KioskStore

extension SyncEngine {
    /// Runs a store call, mapping its error to ``SyncError/storage(_:)`` (a full disk stays a
    /// full disk: `kiosk sync` exits 74 for it, like the other commands).
    func mappingStoreErrors<T>(_ body: () throws(StoreError) -> T) throws(SyncError) -> T {
        do { return try body() } catch { throw .storage(error) }
    }

    func mappingStoreErrors<T>(_ body: () async throws(StoreError) -> T) async throws(SyncError) -> T {
        do { return try await body() } catch { throw .storage(error) }
    }
}
