import Foundation
import PajamaLoading
import PajamaModel
import PajamaHTTP
import PajamaTestSupport

/// `preload`: a reader turning a page every 250 ms through a generated 2,000-beat story served over
/// HTTP with added latency, taking random choices (fixed seed); stalls and requests per turn for each
/// preload policy (the curve of stall rate against requests), against preloading off, and the floor: the
/// requests no policy can go below while staying stall-free. The readers keep beats in memory only
/// (100 beats); three more read as `pajama read` does, with the disk cache behind memory, so a beat fetched
/// once (read, or preloaded and not taken) is never requested again.
struct PreloadScenario: Scenario {
    let name = "preload"
    let summary = "stall rate vs requests per turn per preload policy, 2,000-beat story over HTTP with added latency"

    /// The readers on the curve (policy nil: preloading off, the baseline), memory only unless `disk`.
    static let readers: [(name: String, policy: PreloadPolicy?, disk: Bool)] = [
        ("off", nil, false),
        ("path only, no choice", PreloadPolicy(choices: 0), false),
        ("standard", .standard, false),
        ("measured (standard, widened by the measured link)", .measured, false),
        ("standard + 1 past the choice", PreloadPolicy(beyondChoice: 2), false),
        ("2 choices deep", PreloadPolicy(choices: 2, beyondChoice: 2), false),
        ("wide 5 (round 1)", .wide(), false),
        ("off, memory + disk cache", nil, true),
        ("standard, memory + disk cache", .standard, true),
        ("measured, memory + disk cache (as pajama read)", .measured, true),
    ]

    func run(_ options: BenchOptions) async throws -> [BenchRow] {
        let story = try await GeneratedStory.Served(count: 2000, latency: Double(options.latencyMilliseconds) / 1000)
        defer { story.stop() }
        let turns = options.iterations(1000)
        // The readers run side by side (each has its own engine; the server answers requests in
        // parallel), so the scenario takes 1,000 turns x 250 ms once, not once per policy.
        let cacheRoot = try TemporaryDirectory(prefix: "pajama-bench-preload-cache")
        defer { cacheRoot.remove() }
        let readings = try await withThrowingTaskGroup(of: (Int, Reading).self) { group in
            for (index, entry) in Self.readers.enumerated() {
                let disk = entry.disk ? DiskCache(root: cacheRoot.url.appendingPathComponent("reader-\(index)")) : nil
                group.addTask { (index, try await Self.read(turns: turns, policy: entry.policy, diskCache: disk, baseURL: story.baseURL)) }
            }
            var results: [Int: Reading] = [:]
            for try await (index, reading) in group { results[index] = reading }
            return Self.readers.indices.compactMap { results[$0] }
        }
        let floors = try Self.floorRequests(turns: turns, folder: story.folder.url)
        let floor = (memory: Double(floors.memory) / Double(turns), disk: Double(floors.disk) / Double(turns))
        var rows: [BenchRow] = []
        for (entry, reading) in zip(Self.readers, readings) {
            let stallFree = 100 * Double(turns - reading.stalls) / Double(turns)
            let perTurn = Double(reading.requests) / Double(turns)
            var row = BenchRow(scenario: name, name: "turn wait, \(entry.name)", unit: .seconds, stats: Statistics(reading.waits),
                               note: "\(reading.stalls) stalls / \(turns) turns (\(String(format: "%.1f", stallFree))% stall-free), "
                                   + "\(String(format: "%.3f", perTurn)) requests/turn")
            if entry.policy != nil { row.baseline = entry.disk ? "turn wait, off, memory + disk cache" : "turn wait, off" }
            if entry.policy == PreloadPolicy.standard || entry.policy == PreloadPolicy.measured {
                row.target = ">= 99.9% stall-free, <= 1.25 requests/turn"
                row.met = stallFree >= 99.9 && perTurn <= 1.25
                row.note += String(format: " (floor %.3f)", entry.disk ? floor.disk : floor.memory)
            }
            rows.append(row)
        }
        rows.append(BenchRow(scenario: name, name: "requests/turn floor, stall-free, memory only", unit: .count, stats: Statistics([floor.memory]),
                             note: "every beat read and every target of every choice reached, each fetched once per lap: "
                                 + "random choices are unknown until the key"))
        rows.append(BenchRow(scenario: name, name: "requests/turn floor, stall-free, memory + disk", unit: .count, stats: Statistics([floor.disk]),
                             note: "the same beats, each fetched once in the whole run: the disk cache keeps every lap's"))
        return rows
    }

    struct Reading {
        var stalls: Int
        var requests: Int
        var waits: [Double]
    }

    /// One simulated reader: a turn every 250 ms, a random successor (fixed seed) at each turn; a turn
    /// stalls when the beat it moves to is not in memory yet. `policy` nil: preloading off.
    static func read(turns: Int, policy: PreloadPolicy?, diskCache: DiskCache?, baseURL: URL) async throws -> Reading {
        let manifest = StoryManifest(id: "generated", title: "Generated", startBeatId: "b0")
        let content = StoryContentManager(
            manifest: manifest, source: HTTPStorySource(baseURL: baseURL), diskCache: diskCache,
            decodeImage: { _, _ throws(AssetLoadError) in .textArt(lines: []) }, sound: nil,
            preloadPolicy: policy ?? .standard, preloading: policy != nil)
        var rng = SeededGenerator(seed: 7)
        var current = "b0"
        var stalls = 0
        var waits: [Double] = []
        _ = try await content.loadBeat(current)
        await content.readerMoved(to: StoryLocation(beatId: current, pageId: "p1"))
        for _ in 0..<turns {
            try await Task.sleep(for: .milliseconds(250))
            let beat = try await content.loadBeat(current)
            current = nextBeat(after: beat, using: &rng)
            let start = now()
            if content.resident.beat(current) == nil { stalls += 1 }
            _ = try await content.loadBeat(current)
            waits.append(now() - start)
            await content.readerMoved(to: StoryLocation(beatId: current, pageId: "p1"))
        }
        let reading = Reading(stalls: stalls, requests: await content.metrics().sourceRequests, waits: waits)
        await content.close()
        return reading
    }

    /// The reader's choice: a random successor, the start again at an ending.
    static func nextBeat(after beat: Beat, using rng: inout SeededGenerator) -> String {
        let next = beat.successorBeatIds
        return next.isEmpty ? "b0" : next[Int.random(in: 0..<next.count, using: &rng)]
    }

    /// The fewest beat requests that leave no turn stalled, for the readers' path (same seed): the first
    /// beat, and before each turn every beat the turn can go to. In memory only, each is fetched once per
    /// lap of the story (a reader who reaches the end starts again at b0, 2,000 beats later: what it read
    /// on the last lap has long left the 100-beat memory cache and is fetched again); with the disk cache,
    /// once in the whole run.
    static func floorRequests(turns: Int, folder: URL) throws -> (memory: Int, disk: Int) {
        var beats: [String: Beat] = [:]
        func beat(_ id: String) throws -> Beat {
            if let known = beats[id] { return known }
            let file = "beats/\(id).json"
            let bytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent(file)))
            let decoded = try StoryDecoder.decodeBeat(bytes, file: file, expectedId: id)
            beats[id] = decoded
            return decoded
        }
        var rng = SeededGenerator(seed: 7)
        var current = "b0"
        var needed: Set<String> = [current]
        var everNeeded = needed
        var earlierLaps = 0
        for _ in 0..<turns {
            let here = try beat(current)
            if here.successorBeatIds.isEmpty {
                earlierLaps += needed.count
                needed = []
            }
            let next = here.successorBeatIds.isEmpty ? ["b0"] : here.successorBeatIds
            needed.formUnion(next)
            everNeeded.formUnion(next)
            current = nextBeat(after: here, using: &rng)
        }
        return (memory: earlierLaps + needed.count, disk: everNeeded.count)
    }
}
