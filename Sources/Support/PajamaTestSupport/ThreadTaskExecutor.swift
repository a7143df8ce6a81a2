import Foundation

/// A task executor with its own thread, so the in-process test server answers even while every thread
/// of Swift's cooperative pool is blocked (a synchronous end-to-end test waiting on tmux, on 2 cores).
///
/// Jobs run one at a time, in order, on the thread; the thread lives as long as the process (one per
/// executor, and `TestHTTPServer` shares one).
///
/// The queue is guarded by an `NSCondition` (a pthread mutex and condition variable) rather than
/// `Synchronization.Mutex` and a `DispatchSemaphore`: on Linux those wait with raw futex calls that
/// ThreadSanitizer does not see, so it reported every hand-over of a job to the thread as a race (10
/// reports under `make tsan`). With pthread primitives the hand-over is a happens-before it knows.
public final class ThreadTaskExecutor: TaskExecutor, @unchecked Sendable {
    // Safe: `jobs` is only read and written with `condition` locked.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    public init(name: String) {
        let thread = Thread { [self] in
            while true {
                condition.lock()
                while jobs.isEmpty { condition.wait() }
                let job = jobs.removeFirst()
                condition.unlock()
                job.runSynchronously(on: asUnownedTaskExecutor())
            }
        }
        thread.name = name
        thread.start()
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        condition.lock()
        jobs.append(unowned)
        condition.signal()
        condition.unlock()
    }
}
