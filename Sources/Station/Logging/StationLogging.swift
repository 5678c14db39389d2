import Foundation
import Logging
import Synchronization

/// Where `kiosk run` logs: into `logs/kiosk.log` of the data directory while the console owns
/// the terminal, to stderr (journald) otherwise. `KIOSK_LOG_LEVEL` sets the level (default
/// `notice`).
public enum StationLogging {
    private static let done = Mutex(false)

    /// Sets up logging once per process (swift-log allows one bootstrap) and returns the
    /// station's logger.
    @discardableResult
    public static func bootstrap(console: Bool, dataDirectory: URL) -> Logger {
        let level = ProcessInfo.processInfo.environment["KIOSK_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .notice
        let first = done.withLock { done in
            defer { done = true }
            return !done
        }
        if first {
            if console {
                LoggingSystem.bootstrap(RotatingFileLogHandler.factory(directory: dataDirectory.appendingPathComponent("logs"), level: level))
            } else {
                LoggingSystem.bootstrap { label in
                    var handler = StreamLogHandler.standardError(label: label)
                    handler.logLevel = level
                    return handler
                }
            }
        }
        return Logger(label: "kiosk.run")
    }
}
