import Glibc

/// A thread of its own, for work that blocks in the kernel (an inotify `poll`, a terminal `read`) and so
/// must not hold one of Swift's cooperative threads: what Foundation's `Thread` was used for, on pthreads.
public enum DetachedThread {
    /// Runs `body` on a new detached thread called `name` (at most 15 bytes show in `top`); false if the
    /// system refused the thread (then `body` never runs).
    @discardableResult
    public static func start(name: String, _ body: @escaping @Sendable () -> Void) -> Bool {
        let box = Unmanaged.passRetained(Body(name: name, run: body)).toOpaque()
        var thread = pthread_t()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let started = pthread_create(&thread, &attributes, { pointer in
            let body = Unmanaged<Body>.fromOpaque(pointer!).takeRetainedValue()
            _ = setThreadName(pthread_self(), String(body.name.utf8.prefix(15)) ?? "pajama")
            body.run()
            return nil
        }, box)
        if started != 0 { Unmanaged<Body>.fromOpaque(box).release() }
        return started == 0
    }

    private final class Body: Sendable {
        let name: String
        let run: @Sendable () -> Void
        init(name: String, run: @escaping @Sendable () -> Void) {
            self.name = name
            self.run = run
        }
    }
}

/// glibc's `pthread_setname_np`, which its Swift module leaves out (it is a GNU extension).
@_silgen_name("pthread_setname_np")
private func setThreadName(_ thread: pthread_t, _ name: UnsafePointer<CChar>) -> Int32
