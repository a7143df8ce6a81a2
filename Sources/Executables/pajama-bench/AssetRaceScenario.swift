import Foundation
import PajamaLoading
import PajamaModel
import PajamaHTTP
import PajamaTestSupport

/// `assets`: the preload race with pictures and sounds of realistic sizes. A generated 2,000-beat story
/// where every other beat's page has a critical picture (a generated PNG of 50-500 KB) and every third
/// a critical `page_enter` sound (a generated Ogg Vorbis file), served by the real test HTTP server over a
/// link of limited bandwidth (every response shares it) with added latency. A turn stalls when the beat
/// or a critical asset of its page is not in memory, and is counted by its cause (`StallCauses`). Each
/// link is measured with preloading off and with the policies of `policies(for:)`, side by side, each
/// reader with its own server (its own link).
struct AssetRaceScenario: Scenario {
    let name = "assets"
    let summary = "stall rate, requests and bytes per turn with 50-500 KB pictures and Ogg sounds over a limited link"

    struct Link: Sendable {
        var name: String
        var bytesPerSecond: Int
        var latencyMilliseconds: Int
        var pageMilliseconds: Int
        var target: Double?
    }

    /// Preloading off (nil), then the policies raced on `link`, each with its limit of asset transfers at
    /// once (1: back to back, the next one's request going out as the current one nears its end): `timed`
    /// looks ahead by time for the link's figures and the largest picture, `measured` by what the
    /// preloader measures while the reader reads.
    static func policies(for link: Link) -> [(name: String, policy: PreloadPolicy?, assetLoads: Int)] {
        let timed = PreloadPolicy.timed(pageSeconds: Double(link.pageMilliseconds) / 1000, latency: Double(link.latencyMilliseconds) / 1000,
                                        bytesPerSecond: Double(link.bytesPerSecond), largestAsset: 500_000)
        return [
            ("off", nil, 2), ("standard", .standard, 2), ("standard + 1 past the choice", PreloadPolicy(beyondChoice: 2), 2),
            ("every beat within 2", PreloadPolicy(everyBeatWithin: 2), 2),
            ("every beat within 2, back to back (1 asset + the next)", PreloadPolicy(everyBeatWithin: 2), 1),
            ("every beat within 3", PreloadPolicy(everyBeatWithin: 3), 2),
            ("every beat within 3, back to back", PreloadPolicy(everyBeatWithin: 3), 1),
            ("by time (every beat within \(timed.everyBeatWithin))", timed, 2),
            ("measured (the app's: by time as measured, 2 largest at once)", PreloadPolicy.measured, 2),
            ("measured, back to back", PreloadPolicy.measured, 1),
        ]
    }

    static let links: [Link] = [
        Link(name: "2 MB/s, 80 ms, page 250 ms", bytesPerSecond: 2_000_000, latencyMilliseconds: 80, pageMilliseconds: 250, target: 99.5),
        Link(name: "500 KB/s, 80 ms, page 250 ms", bytesPerSecond: 500_000, latencyMilliseconds: 80, pageMilliseconds: 250),
        Link(name: "fast reader: 2 MB/s, 300 ms, page 100 ms", bytesPerSecond: 2_000_000, latencyMilliseconds: 300, pageMilliseconds: 100),
    ]

    func run(_ options: BenchOptions) async throws -> [BenchRow] {
        let folder = try TemporaryDirectory(prefix: "pajama-bench-assets")
        defer { folder.remove() }
        let assets = try Self.writeStory(count: 2000, to: folder)
        let turns = options.iterations(400)
        let runs = Self.links.flatMap { link in Self.policies(for: link).map { (link, $0) } }
        let readings = try await withThrowingTaskGroup(of: (Int, Reading).self) { group in
            for (index, (link, policy)) in runs.enumerated() {
                group.addTask {
                    let server = try await TestHTTPServer(root: folder.url, options: .init(latency: .milliseconds(link.latencyMilliseconds)))
                    server.update { $0.linkBytesPerSecond = link.bytesPerSecond }
                    defer { server.stopSoon() }
                    var reading = try await Self.read(turns: turns, link: link, policy: policy.policy, assetLoads: policy.assetLoads,
                                                      baseURL: URL(string: server.baseURL)!, assets: assets)
                    reading.requests = server.allRequests.count
                    reading.bytes = server.bodyBytesSent
                    return (index, reading)
                }
            }
            var results: [Int: Reading] = [:]
            for try await (index, reading) in group { results[index] = reading }
            return runs.indices.compactMap { results[$0] }
        }
        var rows: [BenchRow] = []
        for ((link, policy), reading) in zip(runs, readings) {
            let stallFree = 100 * Double(turns - reading.stalls) / Double(turns)
            let off = "turn wait, \(link.name), off"
            let share: Double = 100 * Double(reading.bytes) / Double(link.bytesPerSecond) / reading.seconds
            let busy = String(format: ", link busy %.0f%% of the run", share)
            var row = BenchRow(
                scenario: name, name: "turn wait, \(link.name), \(policy.name)", unit: .seconds,
                stats: Statistics(reading.waits),
                note: "\(reading.stalls) stalls / \(turns) turns (\(String(format: "%.1f", stallFree))% stall-free), "
                    + String(format: "%.2f requests, %.0f KB/turn", Double(reading.requests) / Double(turns),
                             Double(reading.bytes) / Double(turns) / 1000)
                    + busy
                    + (policy.policy == nil ? "" : "; stalls by cause: " + reading.causes.summary)
                    + reading.windowSummary)
            if policy.policy != nil {
                row.baseline = off
                if let target = link.target, policy.policy == PreloadPolicy.measured, policy.assetLoads == 2 {
                    row.target = ">= \(String(format: "%.1f", target))% stall-free"
                    row.met = stallFree >= target
                }
            }
            rows.append(row)
        }
        rows.append(BenchRow(scenario: name, name: "asset sizes", unit: .count, stats: Statistics([Double(assets.files)]),
                             note: assets.description))
        return rows
    }

    struct Reading: Sendable {
        var stalls: Int
        var waits: [Double]
        var causes: StallCauses
        /// How long the reading took, in seconds.
        var seconds: Double
        var requests = 0
        var bytes = 0
        /// For a policy that looks ahead by time: turns by the steps its window had when they were turned
        /// to (every beat within that many steps; 0 before the link and the pace were measured).
        var windows: [Int: Int] = [:]

        var windowSummary: String {
            guard !windows.isEmpty else { return "" }
            return "; window by turns: " + windows.sorted { $0.key < $1.key }.map { "within \($0.key): \($0.value)" }.joined(separator: ", ")
        }
    }

    struct Assets: Sendable {
        var critical: [AssetPath: Criticality]
        /// Each beat's asset's size in bytes.
        var sizes: [AssetPath: Int]
        var files: Int
        var description: String
    }

    /// The story, with a pool of distinct pictures and sounds each beat's asset links to (a file per
    /// beat, so every beat's asset is its own download, without writing 300 MB).
    static func writeStory(count: Int, to folder: TemporaryDirectory) throws -> Assets {
        var rng = SeededGenerator(seed: 11)
        let pictureSizes = (0..<16).map { 50_000 + $0 * 30_000 }  // 50 KB ... 500 KB
        var pictures: [String] = []
        var poolSizes: [String: Int] = [:]
        for (index, size) in pictureSizes.enumerated() {
            let side = Int(Double(size / 4).squareRoot())
            let pixels = (0..<(side * side * 4)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let name = "pool/picture\(index).png"
            let png = PNGFile.rgba(width: side, height: side, pixels: pixels)
            _ = try folder.write(name, Data(png))
            poolSizes[name] = png.count
            pictures.append(name)
        }
        var sounds: [String] = []
        var soundBytes: [Int] = []
        for (index, seconds) in [1.0, 2.0, 3.0, 5.0].enumerated() {
            let sound = try EncodedSound.make(.vorbis, seconds: seconds, rate: 44_100, channels: 2)
            defer { sound.folder.remove() }
            let name = "pool/sound\(index).ogg"
            _ = try folder.write(name, Data(sound.bytes))
            sounds.append(name)
            soundBytes.append(sound.bytes.count)
            poolSizes[name] = sound.bytes.count
        }
        var critical: [AssetPath: Criticality] = [:]
        var links: [(link: String, target: String)] = []
        try GeneratedStory.write(count: count, to: folder) { i in
            var extras = ""
            if i % 2 == 0 {
                let path = "assets/b\(i).png"
                links.append((path, pictures[Int.random(in: 0..<pictures.count, using: &rng)]))
                extras += ",\"imageUrl\":\"\(path)\""
            }
            if i % 3 == 0 {
                let path = "assets/b\(i).ogg"
                links.append((path, sounds[Int.random(in: 0..<sounds.count, using: &rng)]))
                extras += ",\"tools\":[{\"name\":\"sound_effect\",\"args\":{\"sound_url\":\"\(path)\",\"trigger\":\"page_enter\"}}]"
            }
            return extras
        }
        for i in stride(from: 0, to: count, by: 2) { critical[try AssetPath(validating: "assets/b\(i).png")] = .critical }
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("assets"), withIntermediateDirectories: true)
        var sizes: [AssetPath: Int] = [:]
        for (link, target) in links {
            sizes[try AssetPath(validating: link)] = poolSizes[target]
            try FileManager.default.createSymbolicLink(at: folder.url.appendingPathComponent(link),
                                                       withDestinationURL: folder.url.appendingPathComponent(target))
        }
        let description = "pictures 50-500 KB (16 PNGs) on every 2nd page, critical; Ogg sounds "
            + soundBytes.map { "\($0 / 1000) KB" }.joined(separator: "/") + " on every 3rd page, critical (page_enter)"
        return Assets(critical: critical, sizes: sizes, files: links.count, description: description)
    }

    /// One simulated reader: a page every `link.pageMilliseconds`, a random successor (fixed seed); a
    /// turn stalls when the beat or a critical asset of its page is not in memory when it is turned to;
    /// each stall is counted by its cause (`StallCauses`).
    static func read(turns: Int, link: Link, policy: PreloadPolicy?, assetLoads: Int, baseURL: URL, assets: Assets) async throws -> Reading {
        let manifest = StoryManifest(id: "generated", title: "Generated", startBeatId: "b0", criticality: assets.critical)
        let content = StoryContentManager(
            manifest: manifest, source: HTTPStorySource(baseURL: baseURL), diskCache: nil,
            decodeImage: { _, _ throws(AssetLoadError) in .textArt(lines: []) }, sound: SoundRecording(plays: false).client,
            preloadPolicy: policy ?? .standard, preloading: policy != nil, maximumConcurrentAssetLoads: assetLoads)
        let log = LoadLog(content.loadingEvents())
        defer { log.stop() }
        var rng = SeededGenerator(seed: 7)
        var current = StoryLocation(beatId: "b0", pageId: "p1")
        var stalls = 0
        var waits: [Double] = []
        var causes = StallCauses()
        var stepsPastChoice = 0
        var windows: [Int: Int] = [:]
        let began = now()
        let first = try await content.loadBeat(current.beatId)
        try await content.loadCriticalAssets(for: current, in: first)
        await content.readerMoved(to: current)
        for _ in 0..<turns {
            try await Task.sleep(for: .milliseconds(link.pageMilliseconds))
            let beat = try await content.loadBeat(current.beatId)
            current = StoryLocation(beatId: PreloadScenario.nextBeat(after: beat, using: &rng), pageId: "p1")
            stepsPastChoice = Set(beat.successorBeatIds).count > 1 ? 0 : stepsPastChoice + 1
            if let policy, policy.byTime {
                windows[policy.widened(to: await content.linkMeasure.everyBeatWithin).everyBeatWithin, default: 0] += 1
            }
            let start = now()
            var ready = false
            if let next = content.resident.beat(current.beatId) {
                ready = content.resident.criticalAssetsLoaded(for: current, in: next)
                if !ready, let stall = await missingAsset(of: next, at: current, in: content, assets: assets, log: log) {
                    causes.add(.init(missing: stall.missing, stepsPastChoice: stepsPastChoice, size: stall.size, status: stall.status, at: start))
                }
            } else {
                causes.add(.init(missing: .beat, stepsPastChoice: stepsPastChoice, size: nil, status: log.status(.beat(current.beatId)), at: start))
            }
            if !ready { stalls += 1 }
            let next = try await content.loadBeat(current.beatId)
            try await content.loadCriticalAssets(for: current, in: next)
            waits.append(now() - start)
            await content.readerMoved(to: current)
        }
        let reading = Reading(stalls: stalls, waits: waits, causes: causes, seconds: now() - began, windows: windows)
        await content.close()  // its preloads end with the reading, not when its server stops
        return reading
    }

    /// The first critical asset of the page at `location` not in memory: a picture or a sound, its size and its load's status.
    static func missingAsset(of beat: Beat, at location: StoryLocation, in content: StoryContentManager, assets: Assets,
                             log: LoadLog) async -> (missing: StallCauses.Missing, size: Int?, status: LoadLog.Status)? {
        guard let page = beat.page(withId: location.pageId) else { return nil }
        for reference in page.assetReferences(beatId: beat.id) where await content.criticality(of: reference) == .critical {
            if reference.role.isSound {
                if content.resident.sound(reference.path) == nil {
                    return (.sound, assets.sizes[reference.path], log.status(.sound(reference.path)))
                }
            } else if content.resident.image(reference.path) == nil {
                return (.picture, assets.sizes[reference.path], log.status(.image(reference.path)))
            }
        }
        return nil
    }
}
