import FoundationEssentials
import Glibc
import PajamaBasics

/// A value guarded by a pthread mutex: the project's one lock for state shared between threads.
///
/// Not `Synchronization.Mutex`: on Linux it waits with raw futex system calls that ThreadSanitizer does
/// not see, so under `make tsan` every access to the value it guards from two threads was reported as a
/// race (the co-reading outbox, the test executor's queue). ThreadSanitizer knows pthread mutexes.
public final class Locked<Value>: @unchecked Sendable {
    // Safe: `value` is only read and written between `pthread_mutex_lock` and `pthread_mutex_unlock`.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    public init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` on the value with the lock held (not reentrant: `body` must not lock it again).
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
