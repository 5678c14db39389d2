import HubStorage
import Logging
import PostgresNIO
import Synchronization

/// How hub processes sharing one PostgreSQL database learn of each other's commits: every write
/// to an event sends `NOTIFY checkin_hub_changes, '<event id>'` in its transaction
/// (``PostgresSQLConnection/announce(_:)``), and each hub LISTENs on one dedicated connection.
extension PostgresDatabase {
    static let changeChannel = "checkin_hub_changes"
    static let listenerApplicationName = "checkin-hub change listener"

    /// First wait before reconnecting a lost listener; doubled per failure up to ``longestReconnectWait``.
    static let firstReconnectWait = Duration.milliseconds(250)
    static let longestReconnectWait = Duration.seconds(10)
    /// A quiet listener is asked `SELECT 1` this often: a connection that died without a word (a
    /// network cut) would otherwise look connected, and followers would wait for their heartbeat.
    static let listenerPingInterval = Duration.seconds(10)
    static let listenerPingTimeout = Duration.seconds(5)

    /// LISTENs until cancelled. While the listener is up the sink is told reports are complete;
    /// whenever it is down (database restart, network, `pg_terminate_backend`), incomplete, so
    /// held requests are served by polling until it is back.
    public func reportChanges(to sink: any ChangeSink) async {
        var wait = Self.firstReconnectWait
        while !Task.isCancelled {
            do {
                let connection = try await PostgresConnection.connect(configuration: listenerConfiguration, id: 0, logger: logger)
                do {
                    try await connection.listen(on: Self.changeChannel) { notices in
                        // LISTEN is in effect: from here on no commit goes unreported.
                        sink.reportsEveryChange(true)
                        wait = Self.firstReconnectWait
                        logger.debug("listening for changes")
                        try await Self.follow(notices, on: connection, into: sink, logger: logger)
                    }
                } catch {
                    if !Task.isCancelled {
                        logger.warning("change listener lost; polling until it is back", metadata: ["error": "\(String(reflecting: error))"])
                    }
                }
                try? await connection.close()
            } catch {
                logger.warning("change listener cannot connect; polling until it can", metadata: ["error": "\(String(reflecting: error))"])
            }
            sink.reportsEveryChange(false)
            guard !Task.isCancelled else { return }
            try? await Task.sleep(for: wait)
            wait = min(wait * 2, Self.longestReconnectWait)
        }
    }

    /// Forwards notices until the connection fails, stops answering pings, or the task is cancelled.
    private static func follow(
        _ notices: PostgresNotificationSequence, on connection: PostgresConnection, into sink: any ChangeSink, logger: Logger
    ) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for try await notice in notices { sink.changed(event: notice.payload, sequence: nil) }
                throw ListenerEnded()
            }
            group.addTask {
                let answered = LastAnswer()
                while true {
                    try await Task.sleep(for: listenerPingInterval)
                    let asked = ContinuousClock.now
                    // Unstructured: a query on a dead connection may not end until the connection
                    // is closed, which is what the check below does.
                    Task { if (try? await connection.query("SELECT 1", logger: logger)) != nil { answered.now() } }
                    try await Task.sleep(for: listenerPingTimeout)
                    if answered.at < asked {
                        try? await connection.close()
                        throw ListenerSilent()
                    }
                }
            }
            // Whichever ends first ends both: a failed ping or a failed stream means reconnect.
            try await group.next()
            group.cancelAll()
        }
    }

    private struct ListenerEnded: Error {}
    private struct ListenerSilent: Error {}

    /// When the listener's connection last answered a ping.
    private final class LastAnswer: Sendable {
        private let instant = Mutex(ContinuousClock.now)
        var at: ContinuousClock.Instant { instant.withLock { $0 } }
        func now() { instant.withLock { $0 = .now } }
    }
}
