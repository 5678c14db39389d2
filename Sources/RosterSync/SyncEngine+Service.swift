import ServiceLifecycle

/// The sync loop as one of the station's services: it runs until the station shuts down; an
/// upload in flight at that moment is cancelled and its changes stay pending for next time.
extension SyncEngine: Service {
    public func run() async throws {
        try await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask { await self.syncLoop() }
                group.addTask { await self.followLoop() }
                group.addTask { await self.heartbeatLoop() }
            }
        }
    }
}
