import PajamaCore
import PajamaTestSupport

/// `decode`: parsing and decoding a beat file, the work behind every disk and network load.
struct DecodeScenario: Scenario {
    let name = "decode"
    let summary = "decode a bundled beat file from bytes (strict parser + model)"

    func run(_ options: BenchOptions) async throws -> [BenchRow] {
        let source = FolderStorySource(folder: PackagePaths.stories.appendingPathComponent("lantern-keeper").path)
        let manifest = try StoryDecoder.decodeManifest(try source.readSync("story.json"))
        let bytes = try source.readSync("beats/\(manifest.startBeatId).json")
        let samples = try measure(iterations: options.iterations(5_000)) {
            _ = try StoryDecoder.decodeBeat(bytes, file: "beat", expectedId: manifest.startBeatId)
        }
        return [BenchRow(scenario: name, name: "beat decode (\(bytes.count) B)", unit: .seconds, stats: Statistics(samples))]
    }
}
