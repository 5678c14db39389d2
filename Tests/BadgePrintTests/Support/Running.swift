import PrintTestSupport
import Foundation
import PrintSpooler
import Testing

/// A print queue's `run()` in a task, with every event it published.
final class RunningQueue: Sendable {
    let queue: PrintQueue
    let task: Task<Void, any Error>
    let events: EventLog

    init(_ queue: PrintQueue) {
        self.queue = queue
        let events = EventLog()
        self.events = events
        Task { for await event in queue.events { await events.append(event) } }
        task = Task { try await queue.run() }
    }

    /// Stops it the hard way (a killed station): the task is cancelled mid-job.
    func kill() async {
        task.cancel()
        _ = await task.result
    }
}

actor EventLog {
    private(set) var all: [PrintQueueEvent] = []
    func append(_ event: PrintQueueEvent) { all.append(event) }

    var printerHealth: [PrinterHealth] {
        all.compactMap { if case .printer(_, let health) = $0 { return health } else { return nil } }
    }

    var questions: [StaleJobsQuestion?] {
        all.compactMap { if case .staleJobs(let question) = $0 { return .some(question) } else { return nil } }
    }

    var jobChanges: [PrintJobChange] {
        all.compactMap { if case .job(let change) = $0 { return change } else { return nil } }
    }
}

/// Waits until `condition` holds, checking every 20 ms; records an issue after `timeout`.
///
/// The whole test run shares two cooperative threads, and other suites' synchronous tests can hold
/// both for many seconds: the condition is checked once more after the deadline, so a wait that
/// was starved past it does not fail a queue that did its work.
func eventually(_ what: String, timeout: Duration = .seconds(30), sourceLocation: SourceLocation = #_sourceLocation,
                _ condition: () async throws -> Bool) async throws {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try await condition() { return }
        try await Task.sleep(for: .milliseconds(20))
    }
    if try await condition() { return }
    Issue.record("timed out waiting until \(what)", sourceLocation: sourceLocation)
    throw RigError(message: "timed out waiting until \(what)")
}
