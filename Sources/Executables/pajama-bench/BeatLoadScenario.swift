import Foundation
import PajamaLoading
import PajamaModel
import PajamaHTTP
import PajamaImage
import PajamaTestSupport

/// `beat-load`: a beat from memory, from the disk cache, and cold over HTTP on loopback.
struct BeatLoadScenario: Scenario {
    let name = "beat-load"
    let summary = "beat load p50/p99 per tier: memory, disk cache, HTTP loopback (cold)"

    func run(_ options: BenchOptions) async throws -> [BenchRow] {
        let count = options.iterations(400)
        let story = try await GeneratedStory.Served(count: count)
        defer { story.stop() }
        let cacheDir = try TemporaryDirectory(prefix: "pajama-bench-cache")
        defer { cacheDir.remove() }
        let manifest = StoryManifest(id: "generated", title: "Generated", startBeatId: "b0")
        let source = HTTPStorySource(baseURL: story.baseURL)
        let disk = DiskCache(root: cacheDir.url)
        // HTTP cold: no memory, no disk entries yet.
        let cold = BeatStorageCoordinator(manifest: manifest, source: source, memory: nil, disk: disk)
        var http: [Double] = []
        for i in 0..<count {
            let start = now()
            _ = try await cold.load("b\(i)")
            http.append(now() - start)
        }
        // Disk: every beat now on disk; memory off.
        var diskTimes: [Double] = []
        for i in 0..<count {
            let start = now()
            _ = try await cold.load("b\(i)")
            diskTimes.append(now() - start)
        }
        // Memory.
        let warm = BeatStorageCoordinator(manifest: manifest, source: source, memory: InMemoryBeatCache(), disk: disk)
        let warmCount = min(count, 100)  // the memory cache holds 100 beats by default
        for i in 0..<warmCount { _ = try await warm.load("b\(i)") }
        var memory: [Double] = []
        for round in 0..<20 {
            for i in 0..<warmCount {
                let start = now()
                _ = try await warm.load("b\((i + round) % warmCount)")
                memory.append(now() - start)
            }
        }
        let m = Statistics(memory), d = Statistics(diskTimes), h = Statistics(http)
        return [
            BenchRow(scenario: name, name: "http loopback (cold)", unit: .seconds, stats: h, note: "baseline"),
            BenchRow(scenario: name, name: "disk cache", unit: .seconds, stats: d, baseline: "http loopback (cold)",
                     target: "p50 < 1 ms", met: d.median < 1e-3),
            BenchRow(scenario: name, name: "memory", unit: .seconds, stats: m, baseline: "http loopback (cold)",
                     target: "p50 < 20 us", met: m.median < 20e-6),
        ]
    }
}
