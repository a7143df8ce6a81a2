import Foundation
import PajamaCore
import PajamaHTTP
import PajamaTestSupport

/// `preload`: a reader turning a page every 250 ms through a generated 2,000-beat story served over
/// HTTP with added latency, taking random choices (fixed seed); stalls and requests with the preloader
/// on and off.
struct PreloadScenario: Scenario {
    let name = "preload"
    let summary = "stalls per 1,000 turns, 2,000-beat story over HTTP with added latency, preloader on vs off"

    func run(_ options: BenchOptions) async throws -> [BenchRow] {
        let story = try await GeneratedStory.Served(count: 2000, latency: Double(options.latencyMilliseconds) / 1000)
        defer { story.stop() }
        let turns = options.iterations(1000)
        var rows: [BenchRow] = []
        // The two readers run side by side (each has its own engine; the server answers requests in
        // parallel), so the scenario takes 1,000 turns x 250 ms once, not twice.
        async let withoutPreloader = Self.read(turns: turns, preloading: false, baseURL: story.baseURL)
        async let withPreloader = Self.read(turns: turns, preloading: true, baseURL: story.baseURL)
        let results = try await [withoutPreloader, withPreloader]
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

    struct Reading {
        var stalls: Int
        var requests: Int
        var waits: [Double]
    }

    /// One simulated reader: a turn every 250 ms, a random successor (fixed seed) at each turn; a turn
    /// stalls when the beat it moves to is not in memory yet.
    static func read(turns: Int, preloading: Bool, baseURL: URL) async throws -> Reading {
        let manifest = StoryManifest(id: "generated", title: "Generated", startBeatId: "b0")
        let content = StoryContentManager(
            manifest: manifest, source: HTTPStorySource(baseURL: baseURL), diskCache: nil,
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
        return Reading(stalls: stalls, requests: await content.metrics().sourceRequests, waits: waits)
    }
}
