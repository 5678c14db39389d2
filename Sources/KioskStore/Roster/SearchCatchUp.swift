import Foundation
import GRDB
import Logging
import Synchronization

/// The background task that indexes staged guests for search, one per database. A lock rather
/// than an actor, so that a catch-up started by a bulk write is registered before the write
/// returns and a ``SearchIndex/finishSearchIndex(progress:)`` right after it waits for it.
final class SearchCatchUp: Sendable {
    private let running = Mutex<Task<Void, Never>?>(nil)

    /// Starts `work` unless a catch-up is already running.
    func start(_ work: @escaping @Sendable () async -> Void) {
        running.withLock { task in
            guard task == nil else { return }
            task = Task {
                await work()
                self.running.withLock { $0 = nil }
            }
        }
    }

    /// Waits for the running catch-up, if any.
    func wait() async {
        await running.withLock { $0 }?.value
    }
}

extension SearchIndex {
    /// Guests stored but not yet in the search index (found by search all the same, by a scan).
    public func pendingSearchCount() throws(StoreError) -> Int {
        try wrap { try writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM search_pending") ?? 0 } }
    }

    /// Indexes up to `batchSize` staged guests in one short transaction, so check-ins recorded
    /// meanwhile wait for at most one batch.
    /// - Returns: how many guests are still waiting.
    @discardableResult
    public func indexPendingSearch(batchSize: Int = 1_000) async throws(StoreError) -> Int {
        try requireUsable()
        return try await wrap {
            try await writer.write { db in
                let batch = "SELECT guest_rowid FROM search_pending ORDER BY guest_rowid LIMIT \(batchSize)"
                try db.execute(sql: """
                    INSERT INTO guest_search (rowid, search_text)
                    SELECT guest_rowid, search_text FROM search_pending WHERE guest_rowid IN (\(batch))
                    """)
                try db.execute(sql: "DELETE FROM search_pending WHERE guest_rowid IN (\(batch))")
                return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM search_pending") ?? 0
            }
        }
    }

    /// Indexes every staged guest, waiting for a background catch-up already running first.
    /// - Parameter progress: called after each batch with the number still waiting.
    public func finishSearchIndex(progress: (@Sendable (Int) -> Void)? = nil) async throws(StoreError) {
        await database.searchCatchUp.wait()
        try await indexAllPending(progress: progress)
    }

    private func indexAllPending(progress: (@Sendable (Int) -> Void)? = nil) async throws(StoreError) {
        var remaining = try pendingSearchCount()
        let postponed = try searchMergingPostponed()
        guard remaining > 0 || postponed else { return }
        if !postponed { try await setSearchMerging(Self.postponedMerging) }
        while remaining > 0 {
            remaining = try await indexPendingSearch()
            progress?(remaining)
        }
        // Each batch added an index segment, and every search probes every segment: merge them
        // into one, a slice at a time, so searches are as fast as after a one-statement build.
        while try await mergeSearchSegments() {}
        try await setSearchMerging(Self.defaultMerging)
    }

    /// FTS5's automatic merging is off while a catch-up adds its batches: it re-merged the
    /// growing index after every batch (8.5 s instead of 4.4 s for 99k guests, measured with the
    /// same batches). The catch-up merges once at the end instead, in slices. The setting is
    /// stored in the index, so a catch-up stopped half-way is finished, and the setting
    /// restored, by the next one.
    static let postponedMerging = [("automerge", 0), ("crisismerge", 1_000)]
    /// FTS5's defaults.
    static let defaultMerging = [("automerge", 4), ("crisismerge", 16)]

    func setSearchMerging(_ values: [(String, Int)]) async throws(StoreError) {
        try await wrap {
            try await writer.write { db in
                for (key, value) in values {
                    try db.execute(sql: "INSERT INTO guest_search (guest_search, rank) VALUES (?, ?)", arguments: [key, value])
                }
            }
        }
    }

    func searchMergingPostponed() throws(StoreError) -> Bool {
        try wrap {
            try writer.read { db in
                try Int.fetchOne(db, sql: "SELECT v FROM guest_search_config WHERE k = 'automerge'") == 0
            }
        }
    }

    /// Merges the search index's segments by up to `pages` pages in one short transaction.
    /// - Returns: whether there was anything to merge (FTS5 changes fewer than two rows when not).
    func mergeSearchSegments(pages: Int = 500) async throws(StoreError) -> Bool {
        try requireUsable()
        return try await wrap {
            try await writer.write { db in
                let before = db.totalChangesCount
                try db.execute(sql: "INSERT INTO guest_search (guest_search, rank) VALUES ('merge', ?)", arguments: [-pages])
                return db.totalChangesCount - before >= 2
            }
        }
    }

    /// Starts indexing staged guests in the background (after a roster download, at start-up
    /// after a process was stopped half-way); does nothing when nothing waits or a catch-up runs.
    public func indexInBackground() {
        guard database.backgroundSearchIndex, database.storage.isUsable,
              (try? pendingSearchCount()) ?? 0 > 0 || (try? searchMergingPostponed()) == true else { return }
        let logger = database.logger
        database.searchCatchUp.start { [self] in
            do {
                try await indexAllPending()
                logger.info("search index complete")
            } catch {
                // The guests stay staged and searchable by scan; the next start tries again.
                logger.warning("search index catch-up stopped", metadata: ["error": "\(error)"])
            }
        }
    }
}
