import Foundation
import Logging

/// A long-running part of the station (scan source, sync loop, console).
public protocol StationService: Sendable {
    var name: String { get }
    /// Runs until cancelled (graceful shutdown) or until the service decides the station should stop.
    func run() async throws
}

/// A small ServiceGroup: runs the services together and stops them all, in reverse order of
/// start, on SIGTERM/SIGINT (and SIGHUP: the terminal went away) or when one of them ends with ``StationStop``. Lighter than
/// swift-service-lifecycle for four services in one process, and the same shape, so the
/// services can move to a `ServiceGroup` unchanged.
public struct ServiceRunner: Sendable {
    public let services: [any StationService]
    let logger: Logger

    public init(services: [any StationService], logger: Logger = Logger(label: "kiosk.run")) {
        self.services = services
        self.logger = logger
    }

    /// Runs every service; returns when one asks to stop or a signal arrives, after all ended.
    public func run() async {
        let signals = SignalWatcher(signals: [SIGTERM, SIGINT, SIGHUP])
        await withTaskGroup(of: Void.self) { group in
            for service in services {
                group.addTask { [logger] in
                    do {
                        try await service.run()
                    } catch is CancellationError {
                    } catch is StationStop {
                        logger.info("\(service.name) asked to stop the station")
                    } catch {
                        logger.error("\(service.name) failed: \(error)")
                    }
                }
            }
            group.addTask {
                if let signal = await signals.next() { Logger(label: "kiosk.run").info("signal \(signal): stopping") }
            }
            // The first task to end (a quit, a signal, a failed service) stops the others.
            await group.next()
            group.cancelAll()
        }
        signals.stop()
    }
}

/// Thrown by a service to stop the whole station cleanly (quit confirmed in the console).
public struct StationStop: Error, Sendable {
    public init() {}
}

/// SIGTERM/SIGINT as an async event, through DispatchSource (the signals are ignored as
/// process-wide defaults while watched, so the station can shut down in order).
/// `@unchecked`: the dispatch sources are set up in `init` and only cancelled afterwards;
/// `DispatchSource.cancel()` is thread-safe.
final class SignalWatcher: @unchecked Sendable {
    private let sources: [any DispatchSourceSignal]
    private let stream: AsyncStream<Int32>

    init(signals: [Int32]) {
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
        self.stream = stream
        sources = signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            return source
        }
    }

    func next() async -> Int32? {
        for await number in stream { return number }
        return nil
    }

    func stop() {
        for source in sources { source.cancel() }
    }
}
