#if canImport(Glibc)
import Glibc
#endif

/// Runs `body` on a thread of its own, detached, named `name` (Linux keeps 15 bytes of it): for the loops
/// that block in poll/read (the folder watcher, plain mode's input). Foundation's `Thread` is not in
/// FoundationEssentials. Returns false when the system refuses a thread.
@discardableResult
public func startDetachedThread(named name: String, _ body: @escaping @Sendable () -> Void) -> Bool {
    final class Box: @unchecked Sendable {  // handed to the new thread once, then owned by it
        let body: @Sendable () -> Void
        let name: String
        init(_ body: @escaping @Sendable () -> Void, _ name: String) { self.body = body; self.name = name }
    }
    let box = Unmanaged.passRetained(Box(body, name))
    var thread = pthread_t()
    let started = pthread_create(&thread, nil, { raw in
        let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
        nameThisThread(box.name)
        box.body()
        return nil
    }, box.toOpaque())
    guard started == 0 else { box.release(); return false }
    pthread_detach(thread)
    return true
}

/// Names the calling thread as `ps -L` and `perf` show it (glibc's pthread_setname_np is not in Swift's
/// Glibc module; this is what it does on Linux).
private func nameThisThread(_ name: String) {
    let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
    guard fd >= 0 else { return }
    let bytes = Array(name.utf8.prefix(15))
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
}
