import Dispatch
import Testing

/// Runs tests that block a thread (waiting for child processes, polling a tmux screen, a
/// PostgreSQL cluster starting) on threads of their own instead of Swift's cooperative pool.
///
/// The pool has one thread per core: two on the CI machine. Two such tests blocking at once
/// used to starve every other test that awaits something (a frame pipeline, a print queue) until
/// it hit its time limit. Tests under this trait prefer an executor over an overcommitting
/// dispatch queue, which starts another thread when one blocks.
public final class BlockingWorkExecutor: TaskExecutor {
    public static let shared = BlockingWorkExecutor()
    private let queue = DispatchQueue(label: "kiosk.tests.blocking", attributes: .concurrent)

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

/// See ``BlockingWorkExecutor``: `@Suite(.blocking)`.
public struct BlockingWorkTrait: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        try await withTaskExecutorPreference(BlockingWorkExecutor.shared) { try await function() }
    }
}

extension Trait where Self == BlockingWorkTrait {
    /// For tests that block a thread while they wait for processes: they run off the cooperative pool.
    public static var blocking: Self { BlockingWorkTrait() }
}
