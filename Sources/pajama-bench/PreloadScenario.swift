import Foundation
import PajamaCore
import PajamaTestSupport

/// `preload`: a reader turning a page every 250 ms through a generated 2,000-beat story served over
/// HTTP with added latency, taking random choices (fixed seed); stalls and requests with the preloader
/// on and off.
struct PreloadScenario: Scenario {
    let name = "preload"
    let summary = "stalls per 1,000 turns, 2,000-beat story over HTTP with added latency, preloader on vs off"

    func run(_ options: BenchOptions) async throws -> [BenchRow] {
        let dir = try TemporaryDirectory(prefix: "pajama-bench-preload")
        defer { dir.remove() }
        try GeneratedStory.write(count: 2000, to: dir)
        let server = try TestHTTPServer(root: dir.url, latency: Double(options.latencyMilliseconds) / 1000)
        defer { server.stop() }
        let turns = options.iterations(1000)
        var rows: [BenchRow] = []
        var results: [(on: Bool, stalls: Int, requests: Int, waits: [Double])] = []
        for preloading in [false, true] {
            let manifest = StoryManifest(id: "generated", title: "Generated", startBeatId: "b0")
            let content = StoryContentManager(
                manifest: manifest, source: HTTPStorySource(baseURL: URL(string: server.baseURL)!), diskCache: nil,
                decodeImage: { _, _ throws(AssetLoadError) in .textArt(lines: []) }, sound: nil, preloading: preloading)
            var rng = SeededGenerator(seed: 7)
            var current = "b0"
            var stalls = 0
            var waits: [Double] = []
            _ = try await content.loadBeat(current)
            await content.readerMoved(to: StoryLocation(beatId: current, pageId: "p1"))
            for _ in 0..<turns {
                try await Task.sleep(for: .milliseconds(250))
                let beat = try await content.loadBeat(current)
                var next = beat.successorBeatIds
                if next.isEmpty { next = ["b0"] }
                current = next[Int.random(in: 0..<next.count, using: &rng)]
                let start = now()
                if await !content.isBeatLoaded(current) { stalls += 1 }
                _ = try await content.loadBeat(current)
                waits.append(now() - start)
                await content.readerMoved(to: StoryLocation(beatId: current, pageId: "p1"))
            }
            let requests = await content.metrics().sourceRequests
            results.append((preloading, stalls, requests, waits))
        }
        let off = results[0], on = results[1]
        let stallFree = 100 * Double(turns - on.stalls) / Double(turns)
        rows.append(BenchRow(scenario: name, name: "turn wait, preloader off", unit: .seconds, stats: Statistics(off.waits),
                             note: "\(off.stalls) stalls / \(turns) turns, \(off.requests) requests"))
        rows.append(BenchRow(scenario: name, name: "turn wait, preloader on", unit: .seconds, stats: Statistics(on.waits),
                             baseline: "turn wait, preloader off", target: ">= 99.5% stall-free, >= 20x fewer stalls",
                             met: stallFree >= 99.5 && Double(on.stalls) * 20 <= Double(max(off.stalls, 1)),
                             note: "\(on.stalls) stalls / \(turns) turns (\(String(format: "%.1f", stallFree))% stall-free), \(on.requests) requests"))
        return rows
    }
}
