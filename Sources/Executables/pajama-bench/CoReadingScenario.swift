import Foundation
import PajamaCoReading
import PajamaLoading
import PajamaModel
import PajamaReading
import PajamaImage
import PajamaTerminal
import PajamaTestSupport

/// `coreading`: on loopback, a real host (`CoReadingHost`) and real followers (`FollowerConnection`).
///
/// - `N followers`: owner move (`host.publish`) to the follower's frame composed: each follower's own
///   `ReaderViewModel` moves (`navigateToLocation`, on cached content) and its `ReaderPresenter`, in the
///   follower role, renders the frame. One sample per follower per move; the owner moves again once every
///   follower has composed its frame. All followers share this process's main actor, so with many of
///   them the samples include waiting for each other.
/// - `100 followers over TLS`: the same with the host's self-signed certificate, each follower pinned to its
///   fingerprint, beside the plain row of the same run.
/// - `1000 sockets`: owner move to the last of 1,000 socket-only followers receiving it; with the process's
///   CPU time per move (host and followers are in the same process).
struct CoReadingScenario: Scenario {
    let name = "coreading"
    let summary = "owner move to follower frame (1, 10, 100 followers; 100 over TLS) and fan-out to 1,000 sockets, loopback"

    @MainActor
    func run(_ options: BenchOptions) async throws -> [BenchRow] {
        let folder = PackagePaths.stories.appendingPathComponent("lantern-keeper")
        let content = try await StoryContentManager.open(
            source: FolderStorySource(folder: folder.path), diskCache: nil,
            decodeImage: { path, bytes throws(AssetLoadError) in try ImageDecoder.decode(path: path, bytes: bytes) }, sound: nil,
            preloading: false)
        // Every page of every beat, loaded once, so moves are on cached content (as a follower's are once read).
        var locations: [StoryLocation] = []
        for id in content.manifest.beats ?? [content.manifest.startBeatId] {
            let beat = try await content.loadBeat(id)
            locations += beat.pages.map { StoryLocation(beatId: id, pageId: $0.id) }
        }
        guard locations.count > 1 else { throw Skip(reason: "the story has fewer than two pages") }
        var rows: [BenchRow] = []
        for (count, target) in [(1, 0.020), (10, 0.020), (100, 0.050)] {
            let samples = try await frames(followers: count, moves: options.iterations(500), locations: locations,
                                           content: content, folder: folder)
            let stats = Statistics(samples)
            rows.append(BenchRow(scenario: name, name: "\(count) follower\(count == 1 ? "" : "s")", unit: .seconds, stats: stats,
                                 target: "p99 < \(Int(target * 1000)) ms", met: count == 1 ? nil : stats.p99 < target))
        }
        // The same 100 followers over TLS (a self-signed certificate, each follower pinned to its fingerprint),
        // beside the plain row of this run.
        let plain = rows.last.map { $0.stats.p99 } ?? .nan
        let secure = Statistics(try await frames(followers: 100, moves: options.iterations(500), locations: locations,
                                                 content: content, folder: folder, tls: true))
        rows.append(BenchRow(scenario: name, name: "100 followers over TLS", unit: .seconds, stats: secure, target: "p99 < 50 ms",
                             met: secure.p99 < 0.050,
                             note: String(format: "p99 %.2fx the plain row's (%.1f ms)", secure.p99 / plain, plain * 1000)))
        let (fanOut, cpu, reached) = try await fanOut(sockets: 1000, moves: options.iterations(200), locations: locations, folder: folder)
        let stats = Statistics(fanOut)
        rows.append(BenchRow(scenario: name, name: "1000 sockets", unit: .seconds, stats: stats, target: "p99 < 250 ms",
                             met: reached == 1000 && stats.p99 < 0.250,
                             note: String(format: "%d connected; process CPU %.2f ms/move", reached, cpu * 1000)))
        return rows
    }

    /// One follower: its own reader and presenter, fed by its connection.
    @MainActor
    private final class Follower {
        let viewModel: ReaderViewModel
        var presenter: ReaderPresenter
        var listener: Task<Void, Never>?

        init(content: StoryContentManager) {
            viewModel = ReaderViewModel(content: content, sound: nil, progress: nil)
            presenter = ReaderPresenter(
                storyTitle: content.manifest.title, width: 80, height: 24, themes: [], themeName: "default",
                look: PictureLook(term: "bench", colors: 256, theme: Theme.builtIn), sound: .disabled, role: .follower(owner: "bench"))
        }

        /// Moves to `location` and composes the frame.
        func show(_ location: StoryLocation) async {
            await viewModel.navigateToLocation(location)
            _ = presenter.handle(.state(viewModel.state), at: .now)
            _ = presenter.render()
        }
    }

    /// Counts followers done with the current move and wakes the owner when all are.
    @MainActor
    private final class Round {
        var started = 0.0
        var samples: [Double] = []
        var left = 0
        var waiter: CheckedContinuation<Void, Never>?

        func done() {
            samples.append(now() - started)
            left -= 1
            if left == 0, let waiter {
                self.waiter = nil
                waiter.resume()
            }
        }

        func wait() async {
            guard left > 0 else { return }
            await withCheckedContinuation { waiter = $0 }
        }
    }

    @MainActor
    private func frames(followers count: Int, moves: Int, locations: [StoryLocation], content: StoryContentManager,
                        folder: URL, tls: Bool = false) async throws -> [Double] {
        let host = CoReadingHost(content: .folder(folder), storyId: content.manifest.id, storyVersion: content.manifest.version,
                                 configuration: .init(port: 0, ownerName: "bench", tls: tls ? .selfSigned : nil),
                                 token: "bench-bench-bench-1", log: { _ in })
        let url = URL(string: try await host.start())!
        let pinned = tls ? try await FollowerTLS.configuration(for: url, fingerprint: host.fingerprint) : nil
        let round = Round()
        round.left = count
        var followers: [Follower] = []
        for index in 0..<count {
            let follower = Follower(content: content)
            let events = FollowerConnection.connect(to: url, token: "bench-bench-bench-1", name: "f\(index)", tls: pinned)
            follower.listener = Task { @MainActor [round] in
                for await event in events {
                    switch event {
                    case .welcome: round.done()
                    case .location(let location):
                        await follower.show(location)
                        round.done()
                    default: break
                    }
                }
            }
            followers.append(follower)
        }
        await round.wait()  // every follower welcomed
        FileHandle.standardError.write(Data("coreading: \(count) followers connected\n".utf8))
        var samples: [Double] = []
        for move in 0..<moves {
            round.samples = []
            round.left = count
            round.started = now()
            await host.publish(locations[(move + 1) % locations.count])
            await round.wait()
            samples += round.samples
        }
        await host.end()
        for follower in followers { follower.listener?.cancel() }
        return samples
    }

    /// The time for a move to reach the last of `sockets` followers, and the process's CPU time per move.
    @MainActor
    private func fanOut(sockets: Int, moves: Int, locations: [StoryLocation], folder: URL) async throws -> ([Double], Double, Int) {
        var limits = HostLimits()
        limits.followerCap = sockets
        let host = CoReadingHost(content: .folder(folder), storyId: "lantern-keeper", storyVersion: nil,
                                 configuration: .init(port: 0, ownerName: "bench", limits: limits), token: "bench-bench-bench-1", log: { _ in })
        let url = URL(string: try await host.start())!
        let round = Round()
        let connected = Connected()
        var listeners: [Task<Void, Never>] = []
        // In batches of 100, each welcomed before the next connects (as a class joining over a minute would).
        for batch in stride(from: 0, to: sockets, by: 100) {
            let size = min(100, sockets - batch)
            round.left = size
            for index in batch..<batch + size {
                let events = FollowerConnection.connect(to: url, token: "bench-bench-bench-1", name: "s\(index)")
                listeners.append(Task { @MainActor [round, connected] in
                    for await event in events {
                        switch event {
                        case .welcome:
                            connected.count += 1
                            round.done()
                        case .location: round.done()
                        case .failed(let error):
                            FileHandle.standardError.write(Data("coreading: a socket follower failed: \(error)\n".utf8))
                            round.done()
                        default: break
                        }
                    }
                })
            }
            await round.wait()
        }
        guard connected.count > 0 else { throw Skip(reason: "no socket follower could connect") }
        var samples: [Double] = []
        let cpuBefore = processCPUSeconds()
        for move in 0..<moves {
            round.samples = []
            round.left = connected.count
            round.started = now()
            await host.publish(locations[(move + 1) % locations.count])
            await round.wait()
            samples.append(round.samples.max() ?? 0)
        }
        let cpu = (processCPUSeconds() - cpuBefore) / Double(moves)
        await host.end()
        listeners.forEach { $0.cancel() }
        return (samples, cpu, connected.count)
    }

    @MainActor
    private final class Connected {
        var count = 0
    }

    private func processCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
}
