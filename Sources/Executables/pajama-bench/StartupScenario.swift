import Foundation
import PajamaStorage
import PajamaTestSupport

/// `startup`: from process start to the first page drawn, the real `pajama` binary on a pseudo-terminal
/// (80x24, xterm-256color) reading the short bundled story from its folder. The baseline is the same
/// measurement for `/bin/echo` printing a word: what starting any process costs on this machine.
struct StartupScenario: Scenario {
    let name = "startup"
    let summary = "process start to first page drawn in a pseudo-terminal, local story"

    func run(_ options: BenchOptions) async throws -> [BenchRow] {
        let binary = try Self.builtPajama()
        let home = try TemporaryDirectory(prefix: "pajama-bench-startup")
        defer { home.remove() }
        let story = PackagePaths.stories.appendingPathComponent("lantern-keeper").path
        let environment = Paths.environment(home: home.path).merging([
            "TERM": "xterm-256color", "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin",
            // No sound server at this address: the "sound on" row measures the connection attempt failing fast.
            "PULSE_SERVER": "unix:" + home.path + "/no-such-server",
        ]) { $1 }
        let runs = options.iterations(30)
        // The subtitle of the story's first page: drawn once the first page is on screen.
        let marker = "A short story for a stormy night"
        func series(_ run: PseudoTerminalRun, _ marker: String) throws -> [Double] {
            _ = try run.secondsUntil(marker)  // warm the file cache
            return try (0..<runs).map { _ in try run.secondsUntil(marker) }
        }
        let echo = try series(PseudoTerminalRun(executable: "/bin/echo", arguments: ["ready-marker"], environment: environment), "ready-marker")
        let silent = try series(PseudoTerminalRun(executable: binary, arguments: ["read", story, "--restart", "--no-sound"], environment: environment), marker)
        let withSound = try series(PseudoTerminalRun(executable: binary, arguments: ["read", story, "--restart"], environment: environment), marker)
        let (cold, warm, coldFinal) = try picturePage(binary: binary, story: story, environment: environment, home: home, runs: runs, marker: marker)
        let s = Statistics(silent), w = Statistics(withSound)
        let formats = try jpegFirstPage(binary: binary, story: story, environment: environment, home: home, runs: runs, marker: marker)
        // As fast as with the PNG: the JPEG's median within 10% of the PNG's, or 3 ms (the noise of one run).
        let asFast = formats.jpeg.median <= max(formats.png.median * 1.1, formats.png.median + 0.003)
        return [
            BenchRow(scenario: name, name: "spawn /bin/echo", unit: .seconds, stats: Statistics(echo), note: "baseline: starting a process"),
            BenchRow(scenario: name, name: "first page, --no-sound", unit: .seconds, stats: s, baseline: "spawn /bin/echo",
                     target: "< 150 ms", met: s.median < 0.150),
            BenchRow(scenario: name, name: "first page, sound on (no server)", unit: .seconds, stats: w, baseline: "spawn /bin/echo",
                     target: "< 150 ms", met: w.median < 0.150),
            BenchRow(scenario: name, name: "first page with its picture, 200x60, cold", unit: .seconds, stats: cold, baseline: "spawn /bin/echo",
                     target: "median < 60 ms", met: cold.median < 0.060,
                     note: "until the first frame with the picture (a draft at 256 colours) is written; a new cache folder each run"),
            BenchRow(scenario: name, name: "first page with its picture, 200x60, cold, final", unit: .seconds, stats: coldFinal,
                     baseline: "spawn /bin/echo", note: "the same runs, until the final picture (DIN99d colours) is written"),
            BenchRow(scenario: name, name: "first page with its picture, 200x60, warm", unit: .seconds, stats: warm, baseline: "spawn /bin/echo",
                     note: "the same, the caches of the previous run kept"),
            BenchRow(scenario: name, name: "first page with its picture as PNG, 200x60, cold (paired)", unit: .seconds, stats: formats.png,
                     baseline: "spawn /bin/echo", note: "runs taken in turn with the JPEG row's"),
            BenchRow(scenario: name, name: "first page with its picture as JPEG, 200x60, cold (paired)", unit: .seconds, stats: formats.jpeg,
                     baseline: "first page with its picture as PNG, 200x60, cold (paired)", target: "median <= PNG's + 10% (or + 3 ms)",
                     met: asFast, note: "the same 96x48 picture as a \(formats.jpegBytes) B JPEG (quality 90)"),
        ]
    }

    /// Process start to the last byte of the first page's first frame with its picture drawn (the title
    /// page's picture, rendered by chafa off the main thread and drawn in a later frame than the text, first
    /// as a quick draft), at 200x60: the output is read until the marker and a picture cell, then until the
    /// program has been quiet for 5 ms (a frame's writes come back to back); and to the last byte before
    /// 50 ms of quiet (the final picture). Cold: a new XDG cache folder for each run; warm: one kept.
    private func picturePage(
        binary: String, story: String, environment: [String: String], home: TemporaryDirectory, runs: Int, marker: String
    ) throws -> (cold: Statistics, warm: Statistics, coldFinal: Statistics) {
        func once(cache: String) throws -> (first: Double, final: Double) {
            try Self.firstPicture(binary: binary, story: story, environment: environment, cache: cache, marker: marker)
        }
        var cold: [(first: Double, final: Double)] = []
        for run in 0..<runs { cold.append(try once(cache: home.path + "/cold-cache-\(run)")) }
        _ = try once(cache: home.path + "/warm-cache")
        let warm = try (0..<runs).map { _ in try once(cache: home.path + "/warm-cache").first }
        return (Statistics(cold.map(\.first)), Statistics(warm), Statistics(cold.map(\.final)))
    }

    /// One run of `picturePage`: process start to the first frame with the picture, and to the final one.
    static func firstPicture(
        binary: String, story: String, environment: [String: String], cache: String, marker: String
    ) throws -> (first: Double, final: Double) {
        var run = PseudoTerminalRun(executable: binary, arguments: ["read", story, "--restart", "--no-sound"],
                                    environment: environment.merging(["XDG_CACHE_HOME": cache]) { $1 })
        run.columns = 200
        run.rows = 60
        let program = try run.start()
        defer { program.stop() }
        let text = try program.read(until: marker)
        // The picture's cells (block elements) come with the text or in a later frame: however long
        // chafa takes, the time runs until they have been written (a quiet gap alone could end early).
        if !hasPictureCell(text) { _ = try program.read(until: "a picture cell") { hasPictureCell($0) } }
        let first = try program.readUntilQuiet(for: 0.005, since: now()).last
        let final = try program.readUntilQuiet(for: KeyToGlassScenario.quiet, since: first).last
        return (first - program.start, final - program.start)
    }

    /// The first page with its title picture as a PNG and as a JPEG (the same picture, PictureFormatFiles;
    /// a copy of the story whose title page names `title.jpg`), at 200x60 with a new cache folder each run,
    /// the two taken in turn so that both meet the same load.
    private func jpegFirstPage(
        binary: String, story: String, environment: [String: String], home: TemporaryDirectory, runs: Int, marker: String
    ) throws -> (png: Statistics, jpeg: Statistics, jpegBytes: Int) {
        let files = try PictureFormatFiles(titlePNG: story + "/assets/images/title.png")
        defer { files.folder.remove() }
        let copy = home.path + "/jpeg-story"
        _ = try ChildProcess.run("/bin/cp", ["-R", story, copy])
        let jpeg = try files.bytes("title", ".jpg")
        try Data(jpeg).write(to: URL(fileURLWithPath: copy + "/assets/images/title.jpg"))
        let start = copy + "/beats/start.json"
        let beat = try String(contentsOfFile: start, encoding: .utf8)
        guard beat.contains("assets/images/title.png") else { throw ScenarioFailure(description: "start.json no longer names title.png") }
        try beat.replacingOccurrences(of: "assets/images/title.png", with: "assets/images/title.jpg").write(toFile: start, atomically: true, encoding: .utf8)
        var png: [Double] = [], jpg: [Double] = []
        for run in 0..<runs {
            png.append(try Self.firstPicture(binary: binary, story: story, environment: environment, cache: home.path + "/png-cache-\(run)", marker: marker).first)
            jpg.append(try Self.firstPicture(binary: binary, story: copy, environment: environment, cache: home.path + "/jpeg-cache-\(run)", marker: marker).first)
        }
        return (Statistics(png), Statistics(jpg), jpeg.count)
    }

    /// `pajama` next to this executable, or a `Skip` saying how to build it (the scenarios that run the
    /// real binary: startup, play, key-to-glass).
    /// Whether `output` holds a block element (U+2580-U+259F, UTF-8 E2 96 80-9F): what chafa draws a picture
    /// with at 256 colours, and nothing else on the title page does.
    static func hasPictureCell(_ output: [UInt8]) -> Bool {
        output.indices.dropLast(2).contains { output[$0] == 0xE2 && output[$0 + 1] == 0x96 && (0x80...0x9F).contains(output[$0 + 2]) }
    }

    static func builtPajama() throws -> String {
        let binary = pajamaBinary()
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw Skip(reason: "\(binary) is not built (run `swift build -c release`)")
        }
        return binary
    }

    /// `pajama` next to this executable (the same build).
    static func pajamaBinary() -> String {
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? PackagePaths.root.appendingPathComponent(".build/release/pajama-bench").path
        return URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent("pajama").path
    }
}
