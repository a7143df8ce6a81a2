import Foundation
import PajamaAudio
import PajamaLoading
import PajamaModel
import PajamaStorage
import PajamaTestSupport
import Testing

/// The author's live preview and the sample cache: a sound whose file changed is removed from the (private)
/// PulseAudio server when the story reloads it, and the next load uploads the new sound under its name.
@Suite(.serialized) struct LivePreviewSoundTests {
    /// The duration the server gives the sample `name` (`pactl list samples short`'s fourth column), if it holds it.
    func serverDuration(_ server: PrivatePulseServer, _ name: String) -> Double? {
        for line in server.pactl("list", "samples", "short").split(separator: "\n") {
            let fields = line.split(separator: "\t")
            if fields.count > 3, fields[1] == name { return Double(fields[3]) }
        }
        return nil
    }

    @Test func aChangedSoundIsRemovedFromTheServerAndUploadedAgain() async throws {
        let (server, config, engine) = try startSoundEngine(.sampleCache)
        let dir = try TemporaryDirectory(prefix: "pajama-live-sound")
        defer { server.stop(); config.remove(); dir.remove() }
        try dir.write("story.json", #"{"format":1,"id":"live-sound","title":"L","startBeatId":"start"}"#)
        try dir.write("beats/start.json", #"{"id":"start","pages":[{"id":"p","type":"text","lines":["a"]}]}"#)
        try dir.write("assets/bell.wav", Data(TestSound.wav(seconds: 0.5)))
        let content = try await StoryContentManager.open(
            source: FolderStorySource(folder: dir.path), diskCache: nil,
            decodeImage: { _, _ throws(AssetLoadError) in .textArt(lines: []) }, sound: .live(engine), preloading: false)
        let bell = try AssetPath(validating: "assets/bell.wav")
        let first = try await content.loadSound(bell)
        let name = PulseSoundEngine.sampleName(first.key)
        #expect(server.waitUntil { serverDuration(server, name).map { abs($0 - 0.5) < 0.05 } ?? false },
                "\(server.pactl("list", "samples", "short"))")

        try dir.write("assets/bell.wav", Data(TestSound.wav(seconds: 1.5)))
        _ = await content.reload(StoryChange(assets: [bell]))
        #expect(content.resident.sound(bell) == nil)
        #expect(server.waitUntil { !server.sampleNames().contains(name) }, "the old sample is removed: \(server.sampleNames())")

        let second = try await content.loadSound(bell)
        #expect(second.frames == 3 * first.frames, "the new file's sound")
        #expect(server.waitUntil { serverDuration(server, name).map { abs($0 - 1.5) < 0.05 } ?? false },
                "the new sound under the same name: \(server.pactl("list", "samples", "short"))")
        await content.clearSounds()
        await engine.shutdown()
    }
}
