import PajamaModel

/// A fake source whose reads wait until the test opens their gate: records the order reads start in
/// and how many run at once, so ordering and concurrency are checked without timing.
actor GatedSource: StorySource {
    nonisolated let location = "gated"
    nonisolated let isLocal = false
    private var files: [String: [UInt8]]
    private var open = false
    private var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]
    private var startWatchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    /// Paths in the order their reads started.
    private(set) var started: [String] = []
    private(set) var running = 0
    private(set) var maximumRunning = 0

    init(files: [String: String]) {
        self.files = files.mapValues { Array($0.utf8) }
    }

    func read(_ path: String) async throws(StorySourceError) -> [UInt8] {
        started.append(path)
        running += 1
        maximumRunning = max(maximumRunning, running)
        let ready = startWatchers.filter { started.count >= $0.count }
        startWatchers.removeAll { started.count >= $0.count }
        for watcher in ready { watcher.continuation.resume() }
        if !open { await withCheckedContinuation { waiting[path, default: []].append($0) } }
        running -= 1
        guard let bytes = files[path] else { throw .notFound(path: path) }
        return bytes
    }

    /// Waits until `count` reads have started in all.
    func waitUntilStarted(_ count: Int) async {
        if started.count >= count { return }
        await withCheckedContinuation { startWatchers.append((count, $0)) }
    }

    /// Lets the waiting reads of `path` finish.
    func release(_ path: String) {
        for continuation in waiting.removeValue(forKey: path) ?? [] { continuation.resume() }
    }

    /// Lets every waiting read finish, and every later read pass at once.
    func openAll() {
        open = true
        let all = waiting.values.flatMap { $0 }
        waiting = [:]
        for continuation in all { continuation.resume() }
    }

    /// Reads currently waiting at the gate.
    var waitingPaths: Set<String> { Set(waiting.keys) }
}
