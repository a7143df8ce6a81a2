import Foundation
import PajamaBasics
import PajamaCoReading
import PajamaModel
import PajamaTestSupport

/// `relay-crowd`: co-reading through relay nodes (issue 41), on loopback with real parts: a private Redis,
/// two nodes (`RelayNode`: Debian's nginx + nchan) sharing it, the owner's host publishing through node A,
/// and the followers split over both nodes in two child processes (`FrameCrowd`: bare WebSockets that note
/// when each frame arrives, as on other machines: they share the two cores, not the owner's event loops).
///
/// For 1,000 and then 10,000 followers: once every one is welcomed, the owner turns `moves` pages a
/// second apart; each follower's receipt of each move (a whole welcome, at a relay) against the moment the
/// owner's host was told of it gives the move-to-frame times (p50/p99 over every follower and move). The
/// owner's CPU per move (this process's user + system time over the moves, divided by their number: the
/// host, its publisher and its watcher; the followers and nginx are other processes) is compared between
/// the two crowds: publishing once, it should not grow with the followers.
struct RelayCrowdScenario: Scenario {
    let name = "relay-crowd"
    let summary = "relay nodes (nginx + nchan + Redis): 1,000 and 10,000 followers over 2 nodes, the owner's CPU per move"
    static let token = CoReadingCrowdScenario.token
    static let secret = "bench-relay-secret-1"

    /// What one crowd measured.
    struct Crowd {
        var followers: Int
        var welcomed: Int
        var welcomedAfter: Double
        /// Move to frame, every follower and move (seconds).
        var latencies: [Double]
        /// Moves, and how many followers received every one of them.
        var moves: Int
        var missed: Int
        /// The owner's CPU seconds per move.
        var ownerCPU: Double
    }

    func run(_ options: BenchOptions) async throws -> [BenchRow] {
        guard RelayNode.nginx != nil, RelayNode.nchanModule != nil else { throw Skip(reason: "nginx or its nchan module is not installed (scripts/install-deps.sh)") }
        guard PrivateRedis.candidates.contains(where: { access($0, X_OK) == 0 }) else { throw Skip(reason: "redis-server is not installed") }
        let sizes = [1000, 10_000].map { max(100, Int(Double($0) * options.scale)) }
        let moves = options.scale < 1 ? 6 : 20
        Self.raiseDescriptorLimit()
        let redis = try await PrivateRedis.start()
        defer { redis.stop() }
        let folder = PackagePaths.stories.appendingPathComponent("lantern-keeper")
        let locations = try CoReadingCrowdScenario.locations(folder)
        let portA = freeLoopbackPort()
        let host = CoReadingHost(content: .folder(folder), storyId: "lantern-keeper", storyVersion: nil,
                                 configuration: .init(port: 0, ownerName: "bench",
                                                      relay: .init(url: URL(string: "http://127.0.0.1:\(portA)/")!, secret: Self.secret)),
                                 token: Self.token, log: { _ in })
        _ = try await host.start()
        let directory = try TemporaryDirectory(prefix: "pajama-bench-relay")
        let nodes = [portA, freeLoopbackPort()].enumerated().map { index, port in
            RelayNode(configuration: RelayConfiguration(port: port, redis: redis.url, token: Self.token, secret: Self.secret,
                                                        origin: URL(string: host.joinURL), folder: directory.path + "/node\(index)",
                                                        errorLog: directory.path + "/nginx\(index).log",
                                                        workerConnections: sizes.max()! + 1024))
        }
        var crowds: [Crowd] = []
        do {
            for node in nodes { try await node.start() }
            var number = 0
            func move() -> StoryLocation {
                var location = locations[number % locations.count]
                location.lineIndex = number
                number += 1
                return location
            }
            await host.publish(move())
            for size in sizes {
                crowds.append(try await crowd(size, nodes: nodes, host: host, moves: moves, move: move))
            }
        } catch {
            await host.end()
            for node in nodes { await node.stop() }
            throw error
        }
        await host.end()
        for node in nodes { await node.stop() }
        // What the nodes said meanwhile (nginx's warnings and errors), in a few lines.
        for node in nodes {
            let said = ((try? String(contentsOfFile: node.configuration.errorLog, encoding: .utf8)) ?? "").split(separator: "\n")
            for line in said.suffix(3) { FileHandle.standardError.write(Data("relay-crowd: node said: \(line.prefix(300))\n".utf8)) }
            if said.count > 3 { FileHandle.standardError.write(Data("relay-crowd: (\(said.count) lines in all)\n".utf8)) }
        }
        var rows: [BenchRow] = []
        for (crowd, (target, limit)) in zip(crowds, [("p99 < 50 ms", 0.050), ("p99 < 250 ms", 0.250)]) {
            let stats = Statistics(crowd.latencies)
            rows.append(BenchRow(scenario: name, name: "relay: move to frame, \(crowd.followers) followers over 2 nodes", unit: .seconds, stats: stats,
                                 target: target, met: crowd.welcomed == crowd.followers && crowd.missed == 0 && stats.p99 < limit,
                                 note: "\(crowd.moves) moves 1 s apart; \(crowd.welcomed) welcomed in \(CoReadingCrowdScenario.seconds(crowd.welcomedAfter)); "
                                     + "\(crowd.missed) missed a move; owner CPU \(String(format: "%.2f", crowd.ownerCPU * 1000)) ms a move"))
        }
        if crowds.count == 2 {
            let ratio = crowds[1].ownerCPU / max(crowds[0].ownerCPU, 1e-6)
            rows.append(BenchRow(scenario: name, name: "relay: owner CPU a move, \(crowds[1].followers) vs \(crowds[0].followers) followers", unit: .count,
                                 stats: Statistics([ratio]), target: "flat (< 1.5x)", met: ratio < 1.5,
                                 note: String(format: "%.2f ms against %.2f ms of the owner's CPU a move (it publishes once)",
                                              crowds[1].ownerCPU * 1000, crowds[0].ownerCPU * 1000)))
        }
        return rows
    }

    /// `size` followers, half at each node, welcomed; then `moves` moves a second apart, timed.
    func crowd(_ size: Int, nodes: [RelayNode], host: CoReadingHost, moves: Int, move: () -> StoryLocation) async throws -> Crowd {
        let halves = [size / 2, size - size / 2]
        let started = now()
        let children = try zip(nodes, halves).map { node, followers in
            try CoReadingCrowdScenario.Child(["--crowd", node.configuration.url, "--crowd-size", String(followers), "--crowd-frames"])
        }
        defer { children.forEach { $0.stop() } }
        let deadline = now() + 300
        while zip(children, halves).contains(where: { child, followers in child.counts().settled < followers }), now() < deadline {
            try await Task.sleep(for: .milliseconds(100))
        }
        let counts = children.map { $0.counts() }
        let welcomed = counts.reduce(0) { $0 + $1.welcomed }
        let welcomedAfter = now() - started
        let failures = children.flatMap { $0.failures() }
        for (reason, count) in failures { FileHandle.standardError.write(Data("relay-crowd: \(count) failed: \(reason)\n".utf8)) }
        FileHandle.standardError.write(Data("relay-crowd: \(welcomed) of \(size) welcomed in \(CoReadingCrowdScenario.seconds(welcomedAfter))\n".utf8))
        guard welcomed > 0 else {
            throw Skip(reason: "no follower of \(size) was welcomed: \(counts.map { "\($0.failed) failed" }.joined(separator: ", "))")
        }
        // The welcomes' work done, what the owner's process spends now is its moves'.
        try await Task.sleep(for: .seconds(2))
        var published: [Int: Double] = [:]
        let before = ProcessCost.now()
        let crowdBefore = children.map { Self.cpu(of: $0.pid) }
        for _ in 0..<moves {
            let location = move()
            published[location.lineIndex] = now()
            await host.publish(location)
            try await Task.sleep(for: .seconds(1))
        }
        let ownerCPU = (ProcessCost.now() - before).cpu / Double(moves)
        let crowdCPU = zip(children, crowdBefore).map { Self.cpu(of: $0.pid) - $1 }.reduce(0, +) / Double(moves)
        FileHandle.standardError.write(Data("relay-crowd: the followers' processes: \(String(format: "%.0f", crowdCPU * 1000)) ms of CPU a move\n".utf8))
        // Every child prints a move once all its followers received it (or 15 s after its first did).
        let numbers = Set(published.keys)
        let printedBy = now() + FrameCrowd.moveWait + 30
        var received: [[Int: [Double]]] = children.map { $0.moves() }
        while received.contains(where: { !numbers.isSubset(of: Set($0.keys)) }), now() < printedBy {
            try await Task.sleep(for: .milliseconds(200))
            received = children.map { $0.moves() }
        }
        var latencies: [Double] = []
        var missed = 0
        for (moves, followers) in zip(received, halves) {
            for (number, at) in published {
                let times = moves[number] ?? []
                latencies += times.map { $0 - at }
                missed = max(missed, followers - times.count)
            }
        }
        return Crowd(followers: size, welcomed: welcomed, welcomedAfter: welcomedAfter, latencies: latencies, moves: moves,
                     missed: missed, ownerCPU: ownerCPU)
    }

    /// A process's CPU seconds so far (user + system, every thread: /proc/PID/stat).
    static func cpu(of pid: pid_t) -> Double {
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        // After the command's closing parenthesis: state is field 3, utime and stime fields 14 and 15.
        guard let close = stat.lastIndex(of: ")") else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Raises this process's soft limit on descriptors to its hard one: the children (5,000 sockets each)
    /// and nginx inherit it.
    static func raiseDescriptorLimit() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}
