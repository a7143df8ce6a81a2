import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaModel

#if canImport(Glibc)
#endif

/// Watches a story folder with inotify (no polling): every folder in it, recursively (hidden ones left
/// out), new folders as they appear. What happens comes on `batches`, a burst of events (an editor's save:
/// a temporary file written then renamed over the old one) gathered into one batch by a
/// `ChangeDebouncer`.
///
/// Folders are watched, not files, so a file replaced by a rename, or deleted and made again, is seen
/// like one written in place. A thread of its own waits on the inotify descriptor and on a pipe that
/// `stop()` writes to; the thread closes the inotify descriptor when it ends, whatever ended it (`stop()`,
/// the consumer of `batches` going away, a read error). `close()` stops it and waits until it has.
public final class FolderWatcher: Sendable {
    /// Why a folder cannot be watched.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// The debounced batches of events, until the watcher stops.
    public let batches: AsyncStream<[FolderEvent]>
    /// The folder watched (symbolic links resolved).
    public let root: String
    private let core: Core

    /// The parts the thread and the owner share.
    private final class Core: Sendable {
        enum State {
            case running
            /// `stop()` was called; the thread has not ended yet (who waits for it, if anyone).
            case stopping([CheckedContinuation<Void, Never>])
            case ended
        }

        let state = Locked(State.running)
        /// A pipe: `stop()` writes to `wakeWriter` to wake the thread, which polls `wakeReader`; both are
        /// closed when the last reference goes (the thread and the watcher hold one each).
        let wakeReader: Int32
        let wakeWriter: Int32

        init(wake: (reader: Int32, writer: Int32)) { (wakeReader, wakeWriter) = wake }

        deinit {
            Glibc.close(wakeReader)
            Glibc.close(wakeWriter)
        }
    }

    /// The most folders watched (a story folder has a handful; this bounds a mistaken one such as `/`).
    public static let folderLimit = 2000

    /// Starts watching `folder`. Throws when inotify is not available or the folder cannot be watched.
    public init(folder: String, quiet: Duration = .milliseconds(100)) throws(Failure) {
        let root = URL(fileURLWithPath: folder).standardizedFileURL.resolvingSymlinksInPath().path
        let inotify = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard inotify >= 0 else { throw Failure(description: "inotify is not available: \(String(cString: strerror(errno)))") }
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(inotify)
            throw Failure(description: "cannot make a pipe: \(reason)")
        }
        let wake = (reader: pipeEnds[0], writer: pipeEnds[1])
        for end in pipeEnds {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        var folders = WatchedFolders(inotify: inotify, root: root)
        if let problem = folders.add("") {
            Glibc.close(inotify)
            Glibc.close(wake.reader)
            Glibc.close(wake.writer)
            throw Failure(description: "cannot watch \(root): \(problem)")
        }
        _ = folders.addTree(under: "")
        let core = Core(wake: wake)
        let (batches, output) = AsyncStream<[FolderEvent]>.makeStream(bufferingPolicy: .unbounded)
        self.batches = batches
        self.root = root
        self.core = core
        output.onTermination = { [core] _ in Self.signalStop(core) }
        let started = startDetachedThread(named: "pajama-watch") { [folders] in
            var folders = folders
            Self.run(&folders, wake: core.wakeReader, quiet: quiet, output: output)
            Glibc.close(folders.inotify)
            output.finish()
            let waiting: [CheckedContinuation<Void, Never>] = core.state.withLock { state in
                defer { state = .ended }
                if case .stopping(let waiting) = state { return waiting }
                return []
            }
            waiting.forEach { $0.resume() }
        }
        guard started else {
            Glibc.close(folders.inotify)
            core.state.withLock { $0 = .ended }
            output.finish()
            throw Failure(description: "cannot watch \(root): the system has no thread for it")
        }
    }

    deinit { Self.signalStop(core) }

    /// Stops watching: the thread wakes, closes the inotify descriptor and ends `batches`. Does not wait.
    public func stop() { Self.signalStop(core) }

    /// Stops watching and returns once the thread has ended (the inotify descriptor is closed).
    public func close() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let ended: Bool = core.state.withLock { state in
                switch state {
                case .ended: return true
                case .running: state = .stopping([done])
                case .stopping(let waiting): state = .stopping(waiting + [done])
                }
                return false
            }
            if ended { done.resume() } else { Self.signalStop(core, alreadyStopping: true) }
        }
    }

    /// Whether the thread has ended (its descriptor closed).
    public var hasEnded: Bool {
        core.state.withLock { if case .ended = $0 { true } else { false } }
    }

    private static func signalStop(_ core: Core, alreadyStopping: Bool = false) {
        let signal: Bool = core.state.withLock { state in
            switch state {
            case .running:
                state = .stopping([])
                return true
            case .stopping: return alreadyStopping
            case .ended: return false
            }
        }
        guard signal else { return }
        var one: UInt8 = 1
        _ = write(core.wakeWriter, &one, 1)
    }

    // MARK: The thread

    /// Waits for inotify events (or the wake), feeds them to the debouncer and yields each batch due.
    private static func run(
        _ folders: inout WatchedFolders, wake: Int32, quiet: Duration, output: AsyncStream<[FolderEvent]>.Continuation
    ) {
        var debouncer = ChangeDebouncer(quiet: quiet)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            var timeout: Int32 = -1
            if let deadline = debouncer.deadline {
                let left = deadline - .now
                timeout = left <= .zero ? 0 : Int32(min(60_000, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1))
            }
            var fds = [pollfd(fd: folders.inotify, events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, timeout)
            if ready < 0, errno != EINTR { return }
            if fds[1].revents != 0 { return }
            if fds[0].revents & Int16(POLLIN) != 0 {
                guard let events = folders.read(into: &buffer) else { return }
                debouncer.add(events, at: .now)
            } else if fds[0].revents != 0 {
                return  // POLLERR / POLLHUP / POLLNVAL
            }
            if let batch = debouncer.take(at: .now) {
                if case .terminated = output.yield(batch) { return }
            }
        }
    }
}

/// The folders under watch (watch descriptor -> path inside the root) and how inotify's events become
/// `FolderEvent`s. Used only by the watcher's thread (and its init, before the thread starts).
struct WatchedFolders: @unchecked Sendable {
    // Safe: handed from the init to the thread once, before the thread starts; only the thread uses it then.
    let inotify: Int32
    let root: String
    private var paths: [Int32: String] = [:]

    static let mask: UInt32 = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_DELETE_SELF)
        | UInt32(IN_ONLYDIR) | UInt32(IN_EXCL_UNLINK)

    init(inotify: Int32, root: String) {
        self.inotify = inotify
        self.root = root
    }

    private func absolute(_ path: String) -> String { path.isEmpty ? root : root + "/" + path }

    /// Watches the folder at `path` (inside the root); the problem when it cannot.
    mutating func add(_ path: String) -> String? {
        guard paths.count < FolderWatcher.folderLimit else { return "more than \(FolderWatcher.folderLimit) folders" }
        let descriptor = inotify_add_watch(inotify, absolute(path), Self.mask)
        guard descriptor >= 0 else { return String(cString: strerror(errno)) }
        paths[descriptor] = path
        return nil
    }

    /// Watches every folder under `path` (not hidden ones); returns the files found (paths inside the root).
    mutating func addTree(under path: String) -> [String] {
        var files: [String] = []
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: absolute(path))) ?? []).sorted()
        for name in names where !name.hasPrefix(".") {
            let child = path.isEmpty ? name : path + "/" + name
            var info = stat()
            guard lstat(absolute(child), &info) == 0 else { continue }
            if info.st_mode & S_IFMT == S_IFDIR {
                if add(child) == nil { files += addTree(under: child) }
            } else {
                files.append(child)
            }
        }
        return files
    }

    /// Stops watching the folder at `path` and those under it (moved away, its watches would report under
    /// a path that is no longer theirs; deleted, the kernel drops them anyway).
    mutating func removeTree(_ path: String) {
        for (descriptor, folder) in paths where folder == path || folder.hasPrefix(path + "/") {
            inotify_rm_watch(inotify, descriptor)
            paths[descriptor] = nil
        }
    }

    /// Reads the events waiting; nil when the descriptor failed (the watch ends).
    mutating func read(into buffer: inout [UInt8]) -> [FolderEvent]? {
        var events: [FolderEvent] = []
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(inotify, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK { return events }
                if errno == EINTR { continue }
                return nil
            }
            if count == 0 { return events }
            var offset = 0
            let header = MemoryLayout<inotify_event>.size
            while offset + header <= count {
                let (descriptor, mask, length) = buffer.withUnsafeBytes { raw in
                    (raw.loadUnaligned(fromByteOffset: offset, as: Int32.self),
                     raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self),
                     Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)))
                }
                let nameBytes = buffer[(offset + header)..<min(count, offset + header + length)].prefix { $0 != 0 }
                offset += header + length
                events += handle(descriptor: descriptor, mask: mask, name: String(decoding: nameBytes, as: UTF8.self))
            }
        }
    }

    private mutating func handle(descriptor: Int32, mask: UInt32, name: String) -> [FolderEvent] {
        if mask & UInt32(IN_Q_OVERFLOW) != 0 { return [FolderEvent(.overflow, "")] }
        if mask & UInt32(IN_IGNORED) != 0 {
            paths[descriptor] = nil  // the folder is gone (or was unwatched)
            return []
        }
        guard let folder = paths[descriptor], !name.isEmpty, !name.hasPrefix(".") || mask & UInt32(IN_ISDIR) == 0 else { return [] }
        let path = folder.isEmpty ? name : folder + "/" + name
        if mask & UInt32(IN_ISDIR) != 0 {
            if mask & UInt32(IN_DELETE | IN_MOVED_FROM) != 0 {
                removeTree(path)
                return [FolderEvent(.folderRemoved, path)]
            }
            guard mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0, add(path) == nil else { return [] }
            // Files may be in it already (made before the watch, or a folder moved in): they count as written.
            return [FolderEvent(.folderAdded, path)] + addTree(under: path).map { FolderEvent(.written, $0) }
        }
        if mask & UInt32(IN_DELETE | IN_MOVED_FROM) != 0 { return [FolderEvent(.removed, path)] }
        return [FolderEvent(.written, path)]
    }
}
