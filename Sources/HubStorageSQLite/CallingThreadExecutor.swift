import Dispatch
import Synchronization

/// Runs an async body to its end on the calling thread: the way a store operation, written once
/// as async code for both databases, runs inside one of GRDB's synchronous database accesses.
///
/// GRDB hands out a connection only inside a closure on its own dispatch queue, and checks that
/// every use happens there. The body is started as a task that prefers this executor, and the
/// calling thread (that queue's) runs the task's jobs until it ends, so every statement runs on
/// the queue, in the access. The body must only talk to that connection: anything that needs the
/// queue (another access to the same database) would wait for ever.
final class CallingThreadExecutor: TaskExecutor, Sendable {
    private let jobs = Mutex<[UnownedJob]>([])
    private let ready = DispatchSemaphore(value: 0)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
        ready.signal()
    }

    /// Runs `body` as a task whose jobs this thread runs, and returns (or throws) what it does.
    static func run<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let executor = CallingThreadExecutor()
        let outcome = Outcome<T>()
        Task(executorPreference: executor) {
            let result: Result<T, any Error>
            do { result = .success(try await body()) } catch { result = .failure(error) }
            outcome.result.withLock { $0 = result }
            executor.ready.signal()
        }
        while true {
            executor.ready.wait()
            while let job = executor.jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
                job.runSynchronously(on: executor.asUnownedTaskExecutor())
            }
            if let result = outcome.result.withLock({ $0 }) { return try result.get() }
        }
    }

    private final class Outcome<T: Sendable>: Sendable {
        let result = Mutex<Result<T, any Error>?>(nil)
    }
}
