import CAllocCount
import Foundation
import PajamaJSON
import PajamaLoading
import PajamaModel
import PajamaReading
import PajamaTestSupport

/// `memory`: a reader goes through 10,000 pages of a generated 20,000-beat story through the whole
/// engine (StoryContentManager with its caches and preloader, ReaderViewModel with its history), taking
/// random choices (fixed seed); resident memory is read at 1k, 5k and 10k pages and its peak reported.
/// Flat means the caches and the history are bounded: RSS at 10k pages is within a few MB of 1k. The heap's
/// live allocations at each checkpoint (glibc's mallinfo2, through CAllocCount) tell our objects from the
/// allocator's free memory, and the RSS after `malloc_trim` how much of the rest glibc merely kept.
///
/// It runs in a child process of its own (`pajama-bench memory --json`, `PAJAMA_BENCH_MEMORY_CHILD` set), so
/// the figures are a reader's: in the bench's process they held what the scenarios before it left with
/// glibc (171 MB before the first page, after the crowd's 2,000 followers).
struct MemoryScenario: Scenario {
    let name = "memory"
    let summary = "RSS while reading 10,000 pages of a generated 20,000-beat story (flat, < 64 MB)"
    static let childVariable = "PAJAMA_BENCH_MEMORY_CHILD"

    func run(_ options: BenchOptions) async throws -> [BenchRow] {
        if ProcessInfo.processInfo.environment[Self.childVariable] != nil { return try await measure(options) }
        let bench = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        var environment = ProcessInfo.processInfo.environment
        environment[Self.childVariable] = "1"
        let child = try ChildProcess.run(bench, [name, "--json"] + (options.scale < 1 ? ["--quick"] : []), environment: environment, timeout: 600)
        guard child.status == 0 else {
            throw ScenarioFailure(description: "the memory child exited \(child.status): \(child.stderr.suffix(500))")
        }
        return try Self.rows(fromJSON: child.stdout)
    }

    /// The rows of `pajama-bench --json`'s output (each memory row is one sample: its median is it).
    static func rows(fromJSON text: String) throws -> [BenchRow] {
        let rows = try JSONParser.parse(text)["rows"]?.arrayValue ?? []
        return try rows.map { row in
            guard let scenario = row["scenario"]?.stringValue, let name = row["measure"]?.stringValue,
                  let unit = row["unit"]?.stringValue.flatMap(BenchRow.Unit.init(rawValue:)) else {
                throw ScenarioFailure(description: "the memory child wrote a row without its scenario, measure or unit")
            }
            var median = Double.nan
            if case .double(let value) = row["median"] { median = value } else if case .int(let value) = row["median"] { median = Double(value) }
            var met: Bool?
            if case .bool(let value) = row["met"] { met = value }
            return BenchRow(scenario: scenario, name: name, unit: unit, stats: Statistics([median]), target: row["target"]?.stringValue,
                            met: met, note: row["note"]?.stringValue ?? "")
        }
    }

    @MainActor
    private func measure(_ options: BenchOptions) async throws -> [BenchRow] {
        let dir = try TemporaryDirectory(prefix: "pajama-bench-memory")
        defer { dir.remove() }
        try GeneratedStory.write(count: 20_000, to: dir)
        let pages = options.iterations(10_000)
        let checkpoints = [pages / 10, pages / 2, pages]
        let content = try await StoryContentManager.open(
            source: FolderStorySource(folder: dir.path), diskCache: nil,
            decodeImage: { path, _ throws(AssetLoadError) in throw AssetLoadError(.invalidFormat, subject: path.value) }, sound: nil)
        let viewModel = ReaderViewModel(content: content, sound: nil, progress: nil)
        resetPeakResidentMemory()
        let before = residentMegabytes()
        await viewModel.start()
        var rng = SeededGenerator(seed: 11)
        var readings: [(pages: Int, megabytes: Double, heap: pajama_heap)] = []
        for page in 1...pages {
            switch viewModel.state {
            case .page(let p) where !p.page.choices.isEmpty:
                await viewModel.changePage(.choose(Int.random(in: 0..<p.page.choices.count, using: &rng)))
            case .finished:
                await viewModel.restart()
            default:
                await viewModel.changePage(.advance)
            }
            if checkpoints.contains(page) { readings.append((page, residentMegabytes(), pajama_heap_now())) }
        }
        await content.settlePreloads()
        let peak = peakResidentMegabytes()
        let freeBeforeTrim = Self.megabytes(pajama_heap_now().free_bytes)
        _ = pajama_heap_trim()
        let trimmed = residentMegabytes()
        let growth = (readings.last?.megabytes ?? .nan) - (readings.first?.megabytes ?? .nan)
        let heapGrowth = Self.megabytes(readings.last?.heap.in_use ?? 0) - Self.megabytes(readings.first?.heap.in_use ?? 0)
        let flat = growth < 4
        var rows = [BenchRow(scenario: name, name: "RSS before reading", unit: .megabytes, stats: Statistics([before]),
                             note: "in a process of its own")]
        for reading in readings {
            rows.append(BenchRow(scenario: name, name: "RSS after \(reading.pages) pages", unit: .megabytes,
                                 stats: Statistics([reading.megabytes])))
        }
        // Which part is ours: the heap's live allocations (glibc's mallinfo2, every arena) at each checkpoint.
        for reading in readings {
            rows.append(BenchRow(scenario: name, name: "heap in use after \(reading.pages) pages", unit: .megabytes,
                                 stats: Statistics([Self.megabytes(reading.heap.in_use)]),
                                 note: String(format: "%.1f MB free in the heap", Self.megabytes(reading.heap.free_bytes))))
        }
        rows.append(BenchRow(scenario: name, name: "RSS after malloc_trim", unit: .megabytes, stats: Statistics([trimmed]),
                             note: String(format: "%.1f MB free in the heap before", freeBeforeTrim)))
        rows.append(BenchRow(scenario: name, name: "peak RSS while reading", unit: .megabytes, stats: Statistics([peak]),
                             target: "flat and < 64 MB", met: flat && peak < 64,
                             note: String(format: "growth %.1f MB from %d to %d pages (heap in use %+.2f MB)", growth, readings.first?.pages ?? 0, pages, heapGrowth)))
        return rows
    }

    static func megabytes(_ bytes: UInt64) -> Double { Double(bytes) / 1_048_576 }

    /// Resets the kernel's high-water mark of this process's RSS (Linux: "5" to /proc/self/clear_refs),
    /// so the peak belongs to this scenario and not to an earlier one in the same run.
    private func resetPeakResidentMemory() {
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    }

    /// VmHWM from /proc/self/status, in MB.
    private func peakResidentMegabytes() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kb = Double(line.split(separator: " ").dropFirst().first ?? "")
        else { return .nan }
        return kb / 1024
    }
}
