import PajamaTestSupport

/// Starting a private PulseAudio server and asking pactl block their thread: they run on this one, not on
/// the cooperative pool (2 threads on 2 cores) that the readings of the other tests need.
enum BlockingWork {
    static let thread = ThreadTaskExecutor(name: "pajama reader blocking work")

    @discardableResult
    static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await Task(executorPreference: thread) { try body() }.value
    }
}
