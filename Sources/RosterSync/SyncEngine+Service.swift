import ServiceLifecycle
import SyncSchedule

/// The sync loop as one of the station's services: it runs until the station shuts down; an
/// upload in flight at that moment is cancelled and its changes stay pending for next time.
/// Beside the schedule's loop, the follow loop (the hub's long-poll) and the heartbeat.
extension SyncEngine: Service {
    public func run() async throws {
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask { await SyncLoop.run(self, configuration: self.schedule) }
                group.addTask { await self.followLoop() }
                group.addTask { await self.heartbeatLoop() }
            }
        }
    }
}
