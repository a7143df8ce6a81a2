import Foundation

/// Runs async work to its end from the synchronous fuzz callback (libFuzzer calls on its own thread, never
/// on the cooperative pool or the main thread, so waiting here starves no task).
enum Blocking {
    static func run(_ operation: @escaping @Sendable () async -> Void) {
        let done = DispatchSemaphore(value: 0)
        Task {
            await operation()
            done.signal()
        }
        done.wait()
    }
}
