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
