import GRDB

/// What every repository of the station's store shares: the one database, its single writer
/// and its unlocked keys. A repository is a small value over ``KioskDatabase`` holding one
/// area's reads and writes (``RosterStore``, ``SearchIndex``).
protocol StoreRepository: Sendable {
    var database: KioskDatabase { get }
}

extension StoreRepository {
    var writer: DatabasePool { database.writer }
    var cipher: GuestCipher { database.keys.cipher }

    func requireUsable() throws(StoreError) { try database.requireUsable() }

    func wrap<T>(_ work: () throws -> T) throws(StoreError) -> T { try database.wrap(work) }

    func wrap<T>(_ work: () async throws -> T) async throws(StoreError) -> T { try await database.wrap(work) }
}
