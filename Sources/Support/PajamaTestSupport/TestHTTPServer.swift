import Foundation
import Hummingbird
import ServiceLifecycle
import Logging
import PajamaModel
import Synchronization

/// A real web server on 127.0.0.1, in process (Hummingbird), for tests and the bench: serves a folder
/// with ETags and Range requests (206, `If-Range`), and misbehaves per path as `Options` say (latency,
/// a rate limit, cuts, stalls, statuses, slow answers, files that change after being served).
///
/// Every request is logged with its Range/If-Range/User-Agent headers (`requests(for:)`,
/// `requestCount(for:)`, `waitForRequest(_:count:timeout:)`), so tests count retries, check resumes
/// and synchronise with a request in progress. `restart()` serves again on the same port after `stop()`.
public final class TestHTTPServer: Sendable {
    /// How the server misbehaves. Paths have no leading slash (`beats/left.json`).
    public struct Options: Sendable {
        /// Added before every response.
        public var latency: Duration = .zero
        /// Each response's body is sent at most this fast (bytes per second); nil: as fast as possible.
        public var bytesPerSecond: Int?
        /// The server's whole link: every body shares this many bytes per second, slice by slice in the
        /// order they asked (a slow network, where parallel requests do not add bandwidth); nil: no limit.
        /// When set, `bytesPerSecond` is not used.
        public var linkBytesPerSecond: Int?
        /// Per path: how many responses (from the first) announce the full length, send (at most) half
        /// of what they should and close the connection (bytes not yet on the wire are dropped).
        public var truncated: [String: Int] = [:]
        /// Per path: how many responses (from the first) send half of what they should, then hang until
        /// the server stops.
        public var stalling: [String: Int] = [:]
        /// Per path: the status every request gets (500, 503, 403, 401...), with a short text body.
        public var statuses: [String: Int] = [:]
        /// Per path: a wait before answering.
        public var slow: [String: Duration] = [:]
        /// Paths whose requests wait, unanswered, until a test takes them out of this set (`update`) or
        /// the server stops: a load that is in progress for exactly as long as the test needs. A request
        /// let go is answered with the options of that moment.
        public var held: Set<String> = []
        /// Paths whose body goes out one byte every 100 ms until a test takes the path out of this set
        /// (`update`) or the server stops; then the rest at once. Unlike `held`, the client hears from
        /// the server all along, so its no-progress timeout never fires however long a busy machine
        /// makes the test take: a load in progress for exactly as long as the test needs, and only one.
        public var trickling: Set<String> = []
        /// Paths whose body stops half-way and waits there until a test takes the path out of this set
        /// (`update`) or the server stops; then the rest is sent. A load that shows its progress for as
        /// long as the test needs to see it.
        public var pausedMidBody: Set<String> = []
        /// How many bytes a body in `pausedMidBody` still has to send when it pauses (half of it when nil).
        public var pausedLeaving: Int?
        /// Per path: the file's new content once its first response has ended (however it ended), so a
        /// retry sees a changed file (and a new ETag).
        public var changedAfterFirstResponse: [String: [UInt8]] = [:]
        /// Per path: a body served as is with this `Content-Encoding` (e.g. gzip bytes), instead of the file.
        public var encoded: [String: (encoding: String, bytes: [UInt8])] = [:]
        /// Whether responses carry an ETag (and so can be resumed with If-Range).
        public var eTags = true
        /// Per path: answered with a 302 to this location (a path on this server, or a whole URL), so
        /// two paths that point at each other make a redirect loop.
        public var redirects: [String: String] = [:]

        public init(latency: Duration = .zero, bytesPerSecond: Int? = nil, truncated: [String: Int] = [:],
                    stalling: [String: Int] = [:], statuses: [String: Int] = [:], slow: [String: Duration] = [:],
                    changedAfterFirstResponse: [String: [UInt8]] = [:]) {
            self.latency = latency
            self.bytesPerSecond = bytesPerSecond
            self.truncated = truncated
            self.stalling = stalling
            self.statuses = statuses
            self.slow = slow
            self.changedAfterFirstResponse = changedAfterFirstResponse
        }

        /// Always misbehaves on `paths` (every response).
        public static func always(_ paths: [String]) -> [String: Int] {
            Dictionary(uniqueKeysWithValues: paths.map { ($0, Int.max) })
        }
    }

    /// One request as the server saw it.
    public struct LoggedRequest: Sendable, Equatable {
        public var path: String
        public var range: String?
        public var ifRange: String?
        public var userAgent: String?
        public var acceptEncoding: String?
        /// The status answered.
        public var status: Int
    }

    private struct State {
        var options: Options
        var log: [LoggedRequest] = []
        /// Responses begun per path (for the counted misbehaviours).
        var served: [String: Int] = [:]
        /// Files replaced in memory (`changedAfterFirstResponse`).
        var replaced: [String: [UInt8]] = [:]
        var running: Running?
        var stopped = true
        var generation = 0
        /// Stalled responses, resumed (with an error: the connection is dropped) when the server stops.
        var stalls: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextStall = 0
    }

    /// A server that runs: its service group (stopped gracefully) and the task running it.
    struct Running {
        var group: ServiceGroup
        var task: Task<Void, any Error>
    }

    /// The thread every test server's tasks run on.
    static let executor = ThreadTaskExecutor(name: "pajama-test-http-server")

    public let root: URL
    private let state: Locked<State>
    private let boundPort = Atomic<Int>(0)
    /// When the link (`linkBytesPerSecond`) has sent every slice taken so far.
    private let linkFree = Locked<ContinuousClock.Instant?>(nil)
    private let sentBytes = Atomic<Int>(0)

    public var port: Int { boundPort.load(ordering: .acquiring) }
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Serves `root` on a free port (or `port`), behaving as `options` say.
    ///
    /// A free port is taken below the kernel's ephemeral range: a port from that range, once given up by
    /// `stop()`, could be handed to an outgoing connection of the test process (the HTTP client's) before
    /// `restart()` binds it again.
    public init(root: URL, options: Options = Options(), port: Int = 0) async throws {
        self.root = root
        state = Locked(State(options: options))
        if port != 0 {
            try await start(port: port)
            return
        }
        for candidate in Self.portsOutsideTheEphemeralRange().prefix(20) {
            if (try? await start(port: candidate)) != nil { return }
        }
        try await start(port: 0)  // none free there: any port
    }

    /// Random ports between 20000 and the start of the ephemeral range (`ip_local_port_range`), when that
    /// leaves room; none otherwise.
    static func portsOutsideTheEphemeralRange() -> [Int] {
        let range = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)) ?? ""
        guard let low = range.split(whereSeparator: \.isWhitespace).first.flatMap({ Int($0) }), low > 21000 else { return [] }
        return (0..<20).map { _ in Int.random(in: 20000..<low) }
    }

    /// Changes how the server behaves from the next request on.
    public func update(_ change: (inout Options) -> Void) {
        state.withLock { change(&$0.options) }
    }

    // MARK: The log

    /// Every request for `path` so far, oldest first.
    public func requests(for path: String) -> [LoggedRequest] {
        state.withLock { $0.log.filter { $0.path == path } }
    }

    /// Every request so far, oldest first.
    public var allRequests: [LoggedRequest] { state.withLock { $0.log } }

    /// The body bytes written to the wire so far, every response counted (the bench's bytes per turn).
    public var bodyBytesSent: Int { sentBytes.load(ordering: .relaxed) }

    /// How many requests for `path` the server has answered or begun answering (for a cut or a stall:
    /// sent the part it sends).
    public func requestCount(for path: String) -> Int { requests(for: path).count }

    /// Waits until `path` has been requested `count` times; false after `timeout` seconds.
    public func waitForRequest(_ path: String, count: Int = 1, timeout: Double = 30) async -> Bool {
        let end = ContinuousClock.now.advanced(by: .milliseconds(Int(timeout * 1000)))
        while ContinuousClock.now < end {
            if requestCount(for: path) >= count { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return requestCount(for: path) >= count
    }

    /// Waits until `path` has arrived `count` times, answered or not (a held request counts as it arrives);
    /// false after `timeout` seconds.
    public func waitForArrival(_ path: String, count: Int = 1, timeout: Double = 30) async -> Bool {
        let end = ContinuousClock.now.advanced(by: .milliseconds(Int(timeout * 1000)))
        func arrived() -> Bool { state.withLock { $0.served[path, default: 0] } >= count }
        while ContinuousClock.now < end {
            if arrived() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return arrived()
    }

    // MARK: Running

    /// Stops serving (stalled, held, paused and slow responses are dropped) and waits until the port is free.
    ///
    /// A graceful shutdown, not a cancelled task: cancelling the task that serves can drop a connection
    /// accepted but not yet handed to Hummingbird, whose NIOAsyncChannel then traps in its deinit
    /// ("Deinited NIOAsyncWriter without calling finish()", swift-nio#2637; it crashed a unit run here once).
    /// Every response in progress ends within a slice once `stopped` is set; the task is cancelled only if
    /// the shutdown has not ended after 10 s.
    public func stop() async {
        let (running, stalls) = state.withLock { state -> (Running?, [CheckedContinuation<Void, Never>]) in
            state.stopped = true
            state.generation += 1
            let stalls = Array(state.stalls.values)
            state.stalls = [:]
            let running = state.running
            state.running = nil
            return (running, stalls)
        }
        for stall in stalls { stall.resume() }
        guard let running else { return }
        await running.group.triggerGracefulShutdown()
        let watchdog = Task {
            try await Task.sleep(for: .seconds(10))
            running.task.cancel()
        }
        _ = await running.task.result
        watchdog.cancel()
    }

    /// Stops without waiting (for `defer`); the server ends shortly after.
    public func stopSoon() {
        Task { await self.stop() }
    }

    /// Serves again on the same port (after `stop()`); the log is kept. The port can stay taken for a
    /// moment after `stop()` returns (the old listener's close finishes on its event loop: "Address already
    /// in use", seen under load), so binding is tried again until it works, for at most 10 s.
    public func restart() async throws {
        await stop()
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            do {
                try await start(port: port)
                return
            } catch where ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(20))
            }
        }
    }

    private func start(port: Int) async throws {
        let router = Router()
        router.get("**") { request, _ in await self.respond(to: request) }
        let (ready, readyInput) = AsyncStream<Int>.makeStream()
        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: nil),
            onServerRunning: { channel in
                readyInput.yield(channel.localAddress?.port ?? 0)
                readyInput.finish()
            },
            logger: Logger(label: "pajama-test-http-server", factory: { _ in SwiftLogNoOpLogHandler() }))
        let group = ServiceGroup(services: [app], logger: Logger(label: "pajama-test-http-server", factory: { _ in SwiftLogNoOpLogHandler() }))
        // On the server's own thread: see `ThreadTaskExecutor`.
        let task = Task(executorPreference: Self.executor) {
            defer { readyInput.finish() }
            try await group.run()
        }
        var bound: Int?
        for await value in ready { bound = value }
        guard let bound, bound > 0 else {
            task.cancel()
            let failure = await task.result
            throw ChildProcess.Failure(message: "the test web server did not start on port \(port): \(failure)")
        }
        boundPort.store(bound, ordering: .releasing)
        state.withLock {
            $0.running = Running(group: group, task: task)
            $0.stopped = false
        }
    }

    // MARK: Answers

    private func respond(to request: Request) async -> Response {
        let path = String(request.uri.path.drop { $0 == "/" }).removingPercentEncoding ?? ""
        let (initial, index, replaced) = state.withLock { state in
            state.served[path, default: 0] += 1
            return (state.options, state.served[path]!, state.replaced[path])
        }
        var entry = LoggedRequest(path: path, range: request.headers[.range], ifRange: request.headers[.ifRange],
                                  userAgent: request.headers[.userAgent], acceptEncoding: request.headers[.acceptEncoding],
                                  status: 200)
        if initial.latency > .zero { try? await Task.sleep(for: initial.latency) }
        if let delay = initial.slow[path] { try? await Task.sleep(for: delay) }
        let options = initial.held.contains(path) ? await released(path) : initial
        if let location = options.redirects[path] {
            entry.status = 302
            log(entry, index: index, options: options)
            return Response(status: .found, headers: [.location: location, .contentType: "text/plain"],
                            body: .init(byteBuffer: ByteBuffer(string: "moved\n")))
        }
        if let status = options.statuses[path] {
            entry.status = status
            log(entry, index: index, options: options)
            return Response(status: .init(code: status), headers: [.contentType: "text/plain"],
                            body: .init(byteBuffer: ByteBuffer(string: "status \(status)\n")))
        }
        var headers: HTTPFields = [.contentType: "application/octet-stream", .acceptRanges: "bytes"]
        let body: [UInt8]
        if let encoded = options.encoded[path] {
            body = encoded.bytes
            headers[.contentEncoding] = encoded.encoding
        } else if let replaced {
            body = replaced
        } else if let data = Self.file(root: root, path: path) {
            body = data
        } else {
            entry.status = 404
            log(entry, index: index, options: options)
            return Response(status: .notFound, headers: [.contentType: "text/plain"], body: .init(byteBuffer: ByteBuffer(string: "not found\n")))
        }
        let tag = Self.eTag(body)
        if options.eTags { headers[.eTag] = tag }
        var start = 0
        if let range = entry.range, let first = Self.rangeStart(range), entry.ifRange == nil || entry.ifRange == tag {
            guard first < body.count else {
                entry.status = 416
                log(entry, index: index, options: options)
                headers[.contentRange] = "bytes */\(body.count)"
                return Response(status: .rangeNotSatisfiable, headers: headers)
            }
            start = first
            entry.status = 206
            headers[.contentRange] = "bytes \(first)-\(body.count - 1)/\(body.count)"
        }
        let part = Array(body[start...])
        let logged = entry
        let cut = index <= options.truncated[path, default: 0]
        let stall = index <= options.stalling[path, default: 0]
        return Response(status: .init(code: entry.status), headers: headers, body: ResponseBody(contentLength: part.count) { writer in
            let sent = (cut || stall) ? part.count / 2 : part.count
            // A whole answer is logged as it begins (so the log is in the order requests came, and a client
            // that has read the whole body finds its request logged); a cut or a stall once its part is sent
            // (so a test waiting for it knows the part is on the wire).
            let partial = cut || stall
            if !partial { self.log(logged) }
            do {
                let from = options.trickling.contains(path) && !partial ? try await self.trickle(part[..<max(0, sent - 1)], to: &writer, path: path) : 0
                let pauseAt = options.pausedMidBody.contains(path) && !partial ? max(from, sent - (options.pausedLeaving ?? sent - sent / 2)) : sent
                for (number, piece) in [part[from..<pauseAt], part[pauseAt..<sent]].enumerated() where !piece.isEmpty {
                    if number == 1 { await self.resumed(path) }
                    if let link = options.linkBytesPerSecond, link > 0 {
                        try await self.write(piece, to: &writer, link: link)
                    } else {
                        try await self.write(piece, to: &writer, rate: options.bytesPerSecond)
                    }
                }
            } catch {
                if partial { self.log(logged) }
                self.ended(logged, index: index, options: options)
                throw error
            }
            if partial { self.log(logged) }
            self.ended(logged, index: index, options: options)
            if cut { throw Dropped() }
            if stall {
                await self.waitUntilStopped()
                throw Dropped()
            }
            try await writer.finish(nil)
        })
    }

    /// The error that drops a connection mid-body (Hummingbird closes it).
    private struct Dropped: Error {}

    /// Sends `bytes` over the shared link: each slice (1/50 s of the link's rate, at most 16 KB) takes its
    /// turn after every slice taken before it and goes out when its turn has ended.
    private func write(_ bytes: ArraySlice<UInt8>, to writer: inout any ResponseBodyWriter, link rate: Int) async throws {
        let slice = max(1, min(16 << 10, rate / 50))
        var offset = bytes.startIndex
        while offset < bytes.endIndex {
            let end = min(bytes.endIndex, offset + slice)
            let due = linkFree.withLock { free in
                let now = ContinuousClock.now
                let start = max(now, free ?? now)
                let sent = start.advanced(by: .seconds(Double(end - offset) / Double(rate)))
                free = sent
                return sent
            }
            try await ContinuousClock().sleep(until: due, tolerance: nil)
            guard !isStopped else { throw Dropped() }
            try await writer.write(ByteBuffer(bytes: bytes[offset..<end]))
            sentBytes.add(end - offset, ordering: .relaxed)
            offset = end
        }
    }

    private func write(_ bytes: ArraySlice<UInt8>, to writer: inout any ResponseBodyWriter, rate: Int?) async throws {
        guard let rate, rate > 0 else {
            if !bytes.isEmpty { try await writer.write(ByteBuffer(bytes: bytes)) }
            sentBytes.add(bytes.count, ordering: .relaxed)
            return
        }
        // Twenty slices a second, each due at its own time from the start (no drift).
        let slice = max(1, rate / 20)
        let clock = ContinuousClock()
        let begin = clock.now
        var offset = bytes.startIndex
        var sent = 0
        while offset < bytes.endIndex {
            guard !isStopped else { throw Dropped() }
            let end = min(bytes.endIndex, offset + slice)
            try await writer.write(ByteBuffer(bytes: bytes[offset..<end]))
            sentBytes.add(end - offset, ordering: .relaxed)
            sent += end - offset
            offset = end
            if offset < bytes.endIndex {
                try await clock.sleep(until: begin.advanced(by: .seconds(Double(sent) / Double(rate))), tolerance: nil)
            }
        }
    }

    /// True once `stop()` has begun: a response in progress ends at its next slice (the connection dropped).
    private var isStopped: Bool { state.withLock { $0.stopped } }

    /// Waits while `path` is held; returns the options in force when it was let go (so a rate set in
    /// the same `update` applies to its answer).
    private func released(_ path: String) async -> Options {
        while state.withLock({ $0.options.held.contains(path) && !$0.stopped }) {
            try? await Task.sleep(for: .milliseconds(10))
        }
        return state.withLock { $0.options }
    }

    /// Sends `bytes` one at a time, one every 100 ms, while `path` is `trickling` and the server runs;
    /// returns the index after the last byte sent.
    private func trickle(_ bytes: ArraySlice<UInt8>, to writer: inout any ResponseBodyWriter, path: String) async throws -> Int {
        var offset = bytes.startIndex
        while offset < bytes.endIndex, state.withLock({ $0.options.trickling.contains(path) && !$0.stopped }) {
            try await writer.write(ByteBuffer(bytes: bytes[offset..<offset + 1]))
            sentBytes.add(1, ordering: .relaxed)
            offset += 1
            try await Task.sleep(for: .milliseconds(100))
        }
        return offset
    }

    /// Waits while `path`'s body is paused half-way (`pausedMidBody`) and the server runs.
    private func resumed(_ path: String) async {
        while state.withLock({ $0.options.pausedMidBody.contains(path) && !$0.stopped }) {
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    private func log(_ entry: LoggedRequest) {
        state.withLock { $0.log.append(entry) }
    }

    /// After a response's body (whole, cut or failed): the first one's end replaces a file that changes.
    private func ended(_ entry: LoggedRequest, index: Int, options: Options) {
        guard index == 1, let changed = options.changedAfterFirstResponse[entry.path] else { return }
        state.withLock { $0.replaced[entry.path] = changed }
    }

    private func log(_ entry: LoggedRequest, index: Int, options: Options) {
        log(entry)
        ended(entry, index: index, options: options)
    }

    private func waitUntilStopped() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state -> Bool in
                if state.stopped { return true }
                state.stalls[state.nextStall] = continuation
                state.nextStall += 1
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    // MARK: Helpers

    /// The file at `path` under `root`, if it is a regular file inside it.
    private static func file(root: URL, path: String) -> [UInt8]? {
        guard !path.isEmpty, !path.split(separator: "/").contains("..") else { return nil }
        let url = root.appendingPathComponent(path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue,
              let data = FileManager.default.contents(atPath: url.path) else { return nil }
        return [UInt8](data)
    }

    /// The strong ETag the server gives `bytes` (FNV-1a and the length).
    public static func eTag(_ bytes: [UInt8]) -> String {
        "\"\(String(FNV1a.hash(bytes), radix: 16))-\(bytes.count)\""
    }

    /// The first byte of `bytes=N-` (or `bytes=N-M`; the end is ignored: the rest is sent).
    static func rangeStart(_ header: String) -> Int? {
        guard header.hasPrefix("bytes="), !header.contains(",") else { return nil }
        let spec = header.dropFirst("bytes=".count)
        guard let dash = spec.firstIndex(of: "-"), let first = Int(spec[..<dash]), first >= 0 else { return nil }
        return first
    }
}
