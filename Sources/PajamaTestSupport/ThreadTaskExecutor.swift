import Foundation
import Synchronization

/// A task executor with its own thread, so the in-process test server answers even while every thread
/// of Swift's cooperative pool is blocked (a synchronous end-to-end test waiting on tmux, on 2 cores).
///
/// Jobs run one at a time, in order, on the thread; the thread lives as long as the process (one per
/// executor, and `TestHTTPServer` shares one).
public final class ThreadTaskExecutor: TaskExecutor, Sendable {
    private let jobs = Mutex<[UnownedJob]>([])
    private let ready = DispatchSemaphore(value: 0)

    public init(name: String) {
        let thread = Thread { [self] in
            while true {
                ready.wait()
                guard let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { continue }
                job.runSynchronously(on: asUnownedTaskExecutor())
            }
        }
        thread.name = name
        thread.start()
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        jobs.withLock { $0.append(unowned) }
        ready.signal()
    }
}
