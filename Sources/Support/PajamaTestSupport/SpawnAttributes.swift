import Foundation

/// Spawn attributes that give a child a clean signal state: nothing blocked and every signal at its
/// default action.
///
/// A child inherits the signal mask of the thread that spawns it, and test runner and Dispatch threads
/// block most signals; without this, a tmux server (and the `pajama` in its pane) would start with
/// SIGTERM and SIGHUP blocked and outlive the test that started it.
public enum SpawnAttributes {
    /// Calls `body` with initialised attributes, destroyed afterwards.
    public static func withClean<T>(_ body: (inout posix_spawnattr_t) -> T) -> T {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var nothing = sigset_t()
        sigemptyset(&nothing)
        posix_spawnattr_setsigmask(&attributes, &nothing)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in Int32(1)..<Int32(32) where number != SIGKILL && number != SIGSTOP { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        return body(&attributes)
    }
}
