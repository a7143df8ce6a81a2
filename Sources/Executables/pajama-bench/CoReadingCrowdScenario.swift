import Foundation
import PajamaCoReading
import PajamaModel
import PajamaTestSupport

/// `coreading-crowd`: what a host on a network meets (issue 26), on loopback with a real host.
///
/// - `join storm`: 2,000 followers connecting at once (cap 2,000) while the owner turns a page every 50
///   ms: the time until every one is welcomed, and the owner's turn (publish to a follower joined before
///   the storm receiving it) p50/p99 during the storm. The crowd and that follower each run in a child
///   process (`CrowdChild`), as on other machines: they share the two cores, not the host's event loops
///   and task pool (in one process the turn waited behind the crowd's own 2,000 handshakes).
///   `PAJAMA_BENCH_CROWD_NICE=N` runs the crowd's child at nice N (its 2,000 clients would be on other
///   people's machines); by default it is not niced, as in the figures of earlier sessions (niced, the
///   crowd's storm lasted longer and the turn was no better: performance.md, "Session 4"). The note says
///   which, and how long the host's threads ran and how long they waited for a CPU meanwhile (`schedule()`).
/// - `slowloris`: 800 sockets each sending a request head a byte a second (kept at 800: one closed by the
///   header timeout is opened again), the owner turning a page every 50 ms for 15 s: the turn's p99.
/// - `host RSS`: the host alone in a child process (`pajama-bench --host-only`) with 1,000 followers
///   welcomed: its resident memory.
struct CoReadingCrowdScenario: Scenario {
    let name = "coreading-crowd"
    let summary = "host under a join storm (2,000), 800 slowloris sockets, RSS with 1,000 followers"
    static let token = "bench-bench-bench-1"

    func run(_ options: BenchOptions) async throws -> [BenchRow] {
        let folder = PackagePaths.stories.appendingPathComponent("lantern-keeper")
        let locations = try Self.locations(folder)
        var rows: [BenchRow] = []
        let storm = try await joinStorm(followers: Int(2000 * max(options.scale, 0.25)), locations: locations, folder: folder)
        rows.append(storm.welcomedRow(name))
        rows.append(BenchRow(scenario: name, name: "join storm: owner turn", unit: .seconds, stats: Statistics(storm.turns),
                             target: "p99 < 50 ms", met: Statistics(storm.turns).p99 < 0.050,
                             note: "\(storm.turns.count) turns; crowd at nice \(Self.crowdNice); host threads ran \(Self.seconds(storm.hostRan)), waited \(Self.seconds(storm.hostWaited)) for a CPU"))
        let slow = try await slowloris(sockets: 800, seconds: options.scale < 1 ? 5 : 15, locations: locations, folder: folder)
        rows.append(BenchRow(scenario: name, name: "slowloris 800: owner turn", unit: .seconds, stats: Statistics(slow.turns),
                             target: "p99 < 20 ms", met: Statistics(slow.turns).p99 < 0.020,
                             note: "\(slow.turns.count) turns; \(slow.refused) slow sockets closed by the header timeout"))
        let rss = try await hostRSS(followers: 1000, folder: folder)
        rows.append(BenchRow(scenario: name, name: "host RSS, 1000 followers", unit: .megabytes, stats: Statistics([Double(rss.bytes) / 1048576]),
                             target: "< 200 MB", met: rss.bytes < 200 << 20, note: "\(rss.welcomed) welcomed; the host alone in a child process"))
        return rows
    }

    static func seconds(_ value: Double) -> String { String(format: "%.2f s", value) }

    /// The crowd child's niceness: `PAJAMA_BENCH_CROWD_NICE`, else 0 (the crowd competes with the host as
    /// an equal).
    static let crowdNice = ProcessInfo.processInfo.environment["PAJAMA_BENCH_CROWD_NICE"].flatMap { Int($0) } ?? 0

    /// This process's threads so far (`/proc/self/task/*/schedstat`): seconds on a CPU, seconds runnable
    /// but waiting for one (the machine's other work, or more runnable threads than cores).
    static func schedule() -> (ran: Double, waited: Double) {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        var ran = 0.0, waited = 0.0
        for task in tasks {
            let fields = ((try? String(contentsOfFile: "/proc/self/task/\(task)/schedstat", encoding: .utf8)) ?? "").split(separator: " ")
            guard fields.count >= 2, let run = Double(fields[0]), let wait = Double(fields[1]) else { continue }
            ran += run / 1e9
            waited += wait / 1e9
        }
        return (ran, waited)
    }

    static func locations(_ folder: URL) throws -> [StoryLocation] {
        var locations: [StoryLocation] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("beats").path).sorted() {
            let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent("beats/\(file)")))
            let beat = try StoryDecoder.decodeBeat(bytes, file: file)
            locations += beat.pages.map { StoryLocation(beatId: beat.id, pageId: $0.id) }
        }
        return locations
    }

    /// Counts what followers saw, from any task: each follower's first welcome or its failure.
    final class Tally: Sendable {
        struct Counts {
            var welcomed = 0
            var full = 0
            var failed = 0
            var lastWelcome = 0.0
        }
        let counts = Locked(Counts())
        var settled: Int { counts.withLock { $0.welcomed + $0.full + $0.failed } }
    }

    struct Storm {
        var followers: Int
        var welcomed: Int
        var full: Int
        var failed: Int
        var allWelcomedAfter: Double
        var turns: [Double]
        /// The host process's threads during the storm: seconds run on a CPU, seconds runnable but waiting for one.
        var hostRan: Double
        var hostWaited: Double

        func welcomedRow(_ scenario: String) -> BenchRow {
            BenchRow(scenario: scenario, name: "join storm: all welcomed", unit: .seconds, stats: Statistics([allWelcomedAfter]),
                     target: "all \(followers) welcomed", met: welcomed == followers,
                     note: "\(welcomed) welcomed, \(full) refused (full), \(failed) failed")
        }
    }

    /// A follower joined before the crowd, whose receipt of each move times the owner's turn.
    final class Reference: Sendable {
        let received: AsyncStream<StoryLocation>
        let task: Task<Void, Never>

        init(url: URL) {
            let (received, input) = AsyncStream<StoryLocation>.makeStream()
            self.received = received
            let events = FollowerConnection.connect(to: url, token: CoReadingCrowdScenario.token, name: "reference")
            task = Task {
                for await event in events {
                    switch event {
                    case .welcome(let welcome, _): if let location = welcome.location { input.yield(location) }
                    case .location(let location): input.yield(location)
                    default: break
                    }
                }
                input.finish()
            }
        }
    }

    /// Publishes `location` and waits for the reference follower to receive it; the seconds it took.
    static func turn(_ host: CoReadingHost, to location: StoryLocation, _ iterator: inout AsyncStream<StoryLocation>.AsyncIterator) async -> Double {
        let started = now()
        await host.publish(location)
        while let got = await iterator.next(), got != location {}
        return now() - started
    }

    func joinStorm(followers: Int, locations: [StoryLocation], folder: URL) async throws -> Storm {
        var limits = HostLimits()
        limits.followerCap = followers + 1
        let host = CoReadingHost(content: .folder(folder), storyId: "lantern-keeper", storyVersion: nil,
                                 configuration: .init(port: 0, ownerName: "bench", limits: limits), token: Self.token, log: { _ in })
        let url = try await host.start()
        // Each move's line index is its number, so the reference child's "at N T" names the move it received.
        func move(_ number: Int) -> StoryLocation {
            var location = locations[number % locations.count]
            location.lineIndex = number
            return location
        }
        await host.publish(move(0))
        let reference = try Child(["--follow", url])
        defer { reference.stop() }
        guard await reference.received(0, within: 60) != nil else { throw Skip(reason: "the reference follower was not welcomed: \(reference.text())") }
        let before = Self.schedule()
        let crowd = try Child(["--crowd", url, "--crowd-size", String(followers)], nice: Self.crowdNice)
        defer { crowd.stop() }
        var turns: [Double] = []
        var number = 1
        let deadline = now() + 180
        while crowd.counts().settled < followers, now() < deadline {
            let started = now()
            await host.publish(move(number))
            guard let received = await reference.received(number, within: 30) else { throw Skip(reason: "move \(number) never reached the reference follower") }
            turns.append(received - started)
            number += 1
            try await Task.sleep(for: .milliseconds(50))
        }
        let after = Self.schedule()
        let counts = crowd.counts()
        FileHandle.standardError.write(Data("coreading-crowd: storm: \(counts.welcomed) welcomed in \(counts.lastWelcome) s\n".utf8))
        await host.end()
        return Storm(followers: followers, welcomed: counts.welcomed, full: counts.full, failed: counts.failed,
                     allWelcomedAfter: counts.lastWelcome, turns: turns, hostRan: after.ran - before.ran, hostWaited: after.waited - before.waited)
    }

    /// Counts a follower's first welcome (a reconnection's is not another follower) or its failure in `tally`
    /// (its last welcome: monotonic seconds).
    static func count(_ events: AsyncStream<FollowerEvent>, into tally: Tally) async {
        var welcomed = false
        for await event in events {
            switch event {
            case .welcome:
                guard !welcomed else { continue }
                welcomed = true
                tally.counts.withLock {
                    $0.welcomed += 1
                    $0.lastWelcome = now()
                }
            case .failed(.sessionFull):
                tally.counts.withLock { $0.full += 1 }
            case .failed(let error):
                FileHandle.standardError.write(Data("coreading-crowd: a follower failed: \(error)\n".utf8))
                tally.counts.withLock { $0.failed += 1 }
            default: break
            }
        }
    }

    /// A storm's child process (`CrowdChild`: the crowd, or the reference follower), as if on another
    /// machine: it shares the cores, not the host's event loops and task pool. What it prints goes to a file.
    struct Child {
        let pid: pid_t
        let output: String
        let directory: TemporaryDirectory

        /// `nice`: above 0, the child runs under `nice -n` (every thread of it, from its start).
        init(_ arguments: [String], nice: Int = 0) throws {
            directory = try TemporaryDirectory(prefix: "pajama-bench-crowd")
            output = directory.path + "/out"
            let me = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
            var environment = ProcessInfo.processInfo.environment
            environment["PAJAMA_TOKEN"] = CoReadingCrowdScenario.token
            let (program, words) = nice > 0 ? ("/usr/bin/nice", ["-n", String(nice), me] + arguments) : (me, arguments)
            pid = try ChildProcess.spawn(program, words, outputFile: output, errorFile: directory.path + "/err",
                                         environment: environment)
        }

        func text() -> String { (try? String(contentsOfFile: output, encoding: .utf8)) ?? "" }

        /// The reasons its followers failed, as it said them (`count`'s lines on its standard error), each with
        /// how many said it.
        func failures() -> [String: Int] {
            let said = (try? String(contentsOfFile: directory.path + "/err", encoding: .utf8)) ?? ""
            var reasons: [String: Int] = [:]
            for line in said.split(separator: "\n") where line.hasPrefix("coreading-crowd: a follower failed: ") {
                reasons[String(line.dropFirst("coreading-crowd: a follower failed: ".count)), default: 0] += 1
            }
            return reasons
        }

        /// When the reference follower received move `number` (monotonic seconds), polled every millisecond.
        func received(_ number: Int, within seconds: Double) async -> Double? {
            let prefix = "at \(number) "
            let end = now() + seconds
            while now() < end {
                if let line = text().split(separator: "\n").last(where: { $0.hasPrefix(prefix) }) { return Double(line.dropFirst(prefix.count)) }
                try? await Task.sleep(for: .milliseconds(1))
            }
            return nil
        }

        /// The crowd's counts as last printed; `lastWelcome`: seconds from its start to its latest welcome.
        func counts() -> (settled: Int, welcomed: Int, full: Int, failed: Int, lastWelcome: Double) {
            let lines = text().split(separator: "\n")
            let started = lines.first { $0.hasPrefix("started ") }.flatMap { Double($0.dropFirst(8)) } ?? 0
            let words = lines.last { $0.hasPrefix("settled ") }?.split(separator: " ").dropFirst().map(String.init) ?? []
            guard words.count == 4, let welcomed = Int(words[0]), let full = Int(words[1]), let failed = Int(words[2]),
                  let last = Double(words[3]) else { return (0, 0, 0, 0, 0) }
            return (welcomed + full + failed, welcomed, full, failed, welcomed > 0 ? last - started : 0)
        }

        /// The moves the crowd printed (`--crowd-frames`): each move's receipt times, by its number.
        func moves() -> [Int: [Double]] {
            var moves: [Int: [Double]] = [:]
            for line in text().split(separator: "\n") where line.hasPrefix("move ") {
                let words = line.split(separator: " ").dropFirst()
                guard let number = words.first.flatMap({ Int($0) }) else { continue }
                moves[number] = words.dropFirst().compactMap { Double($0) }
            }
            return moves
        }

        func stop() { ChildProcess.terminate(pid) }
    }

    func slowloris(sockets: Int, seconds: Double, locations: [StoryLocation], folder: URL) async throws -> (turns: [Double], refused: Int) {
        let host = CoReadingHost(content: .folder(folder), storyId: "lantern-keeper", storyVersion: nil,
                                 configuration: .init(port: 0, ownerName: "bench"), token: Self.token, log: { _ in })
        _ = try await host.start()
        await host.publish(locations[0])
        let reference = Reference(url: URL(string: host.joinURL)!)
        var references = reference.received.makeAsyncIterator()
        _ = await references.next()
        let drip = SlowDrip(port: host.port, sockets: sockets)
        drip.start()
        var turns: [Double] = []
        var move = 1
        let end = now() + seconds
        while now() < end {
            turns.append(await Self.turn(host, to: locations[move % locations.count], &references))
            move += 1
            try await Task.sleep(for: .milliseconds(50))
        }
        let refused = drip.stop()
        reference.task.cancel()
        await host.end()
        return (turns, refused)
    }

    func hostRSS(followers: Int, folder: URL) async throws -> (bytes: Int, welcomed: Int) {
        let dir = try TemporaryDirectory(prefix: "pajama-bench-host")
        let output = dir.path + "/out"
        let me = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
        var environment = ProcessInfo.processInfo.environment
        environment["PAJAMA_TOKEN"] = Self.token
        let pid = try ChildProcess.spawn(me, ["--host-only", folder.path, "--host-max-followers", String(followers + 1)], outputFile: output,
                                         environment: environment)
        defer { ChildProcess.terminate(pid) }
        func printed() -> String { (try? String(contentsOfFile: output, encoding: .utf8)) ?? "" }
        guard Poll.until(timeout: 60, { printed().contains("port ") }) else { throw Skip(reason: "the host child did not start: \(printed())") }
        let words = printed().split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard let port = words.firstIndex(of: "port").flatMap({ Int(words[$0 + 1]) }) else { throw Skip(reason: "no port: \(printed())") }
        let url = URL(string: "http://127.0.0.1:\(port)/")!
        let tally = Tally()
        var listeners: [Task<Void, Never>] = []
        for index in stride(from: 0, to: followers, by: 1) {
            let events = FollowerConnection.connect(to: url, token: Self.token, name: "r\(index)")
            listeners.append(Task { await Self.count(events, into: tally) })
            if index % 100 == 99 { _ = await eventually(timeout: .seconds(60)) { tally.settled >= index + 1 } }
        }
        _ = await eventually(timeout: .seconds(60)) { tally.settled >= followers }
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let rssLine = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        let kilobytes = Int(rssLine.split(separator: " ").dropFirst().first ?? "") ?? 0
        listeners.forEach { $0.cancel() }
        return (kilobytes * 1024, tally.counts.withLock { $0.welcomed })
    }
}

/// `sockets` TCP connections to 127.0.0.1:`port`, each sending a request head a byte a second on a thread of
/// its own; a connection the host closes is opened again. `stop()` closes them and says how many the host closed.
final class SlowDrip: @unchecked Sendable {
    // Only the drip's thread touches `fds` and `refused` until `stop()` has joined it (`done` then set).
    private var fds: [Int32] = []
    private var refused = 0
    private let port: Int
    private let count: Int
    private let stopping = Locked(false)
    private let finished = DispatchSemaphore(value: 0)

    init(port: Int, sockets: Int) {
        self.port = port
        count = sockets
    }

    func start() {
        Thread.detachNewThread { [self] in
            let head = Array("GET /story.json HTTP/1.1\r\nHost: x\r\nX-Slow: ".utf8) + Array(repeating: UInt8(ascii: "a"), count: 100_000)
            var sent = [Int](repeating: 0, count: count)
            fds = (0..<count).map { _ in Self.connect(port) }
            while !stopping.withLock({ $0 }) {
                for index in fds.indices {
                    if fds[index] < 0 || Foundation.send(fds[index], [head[sent[index] % head.count]], 1, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) < 0 {
                        if fds[index] >= 0 {
                            close(fds[index])
                            refused += 1
                        }
                        fds[index] = Self.connect(port)
                        sent[index] = 0
                    } else {
                        sent[index] += 1
                    }
                }
                usleep(1_000_000)
            }
            for fd in fds where fd >= 0 { close(fd) }
            finished.signal()
        }
    }

    /// Stops the drip; how many sockets the host closed meanwhile.
    func stop() -> Int {
        stopping.withLock { $0 = true }
        finished.wait()
        return refused
    }

    static func connect(_ port: Int) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Foundation.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if result != 0 {
            close(fd)
            return -1
        }
        return fd
    }
}
