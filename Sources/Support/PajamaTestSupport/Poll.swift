import Foundation

/// Waiting for a condition with a deadline, the one way tests wait on something outside the test
/// process (a server, a file, a recording): looks every `interval` until `condition` holds or
/// `timeout` seconds have passed, and says which. The interval only spaces the looks; nothing is
/// assumed about how long the thing takes.
public enum Poll {
    @discardableResult
    public static func until(timeout: TimeInterval, interval: useconds_t = 20_000, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if condition() { return true }
            if Date() >= deadline { return false }
            usleep(interval)
        }
    }
}

/// Waiting on the test process's own tasks (a view model, an actor, a session): looks every 5 ms, letting
/// other tasks and the caller's actor run between looks, until `condition` holds or `timeout` has passed,
/// and says which. The deadline only guards against a hang; nothing is assumed about how long it takes.
public func eventually(
    timeout: Duration = .seconds(60), isolation: isolated (any Actor)? = #isolation, _ condition: () async -> Bool
) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while true {
        if await condition() { return true }
        if ContinuousClock.now >= deadline { return false }
        try? await Task.sleep(for: .milliseconds(5))
    }
}

/// `operation`'s result, or `DeadlinePassed` once `timeout` has passed without one (then `operation` is
/// cancelled): a guard against a hang for work that ends by itself (a socket the other side closes), so a
/// test never waits without bound and never waits longer than the work takes.
public func withDeadline<T: Sendable>(
    _ timeout: Duration, _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(for: timeout)
            throw DeadlinePassed(timeout: timeout)
        }
        defer { group.cancelAll() }
        guard let first = try await group.next() else { throw DeadlinePassed(timeout: timeout) }
        return first
    }
}

/// What `withDeadline` throws when its operation outlasts the deadline.
public struct DeadlinePassed: Error, CustomStringConvertible {
    public let timeout: Duration
    public var description: String { "no result within \(timeout)" }
}
