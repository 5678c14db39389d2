import Foundation

/// An executor with one thread of its own: tasks that prefer it (and the default actors they
/// call) run there and nowhere else, so neither the cooperative pool nor other suites' blocked
/// threads hold them back. For in-process services a test runs (a print queue, the station's
/// flow) while hundreds of other tests share the machine. ``stop()`` ends the thread.
public final class DedicatedThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var jobs: [UnownedJob] = []
    private var stopped = false

    public init(name: String) {
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.start()
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Ends the thread once the jobs already queued have run.
    public func stop() {
        condition.lock()
        stopped = true
        condition.signal()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while jobs.isEmpty && !stopped { condition.wait() }
            guard !jobs.isEmpty else {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
