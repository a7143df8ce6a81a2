import Foundation
import PajamaAudio
import PajamaLoading
import PajamaModel
import PajamaTestSupport
import Testing

/// The sound AssetStore's eviction reaches the server: an evicted sound's sample is removed.
@Suite(.serialized) struct SampleEvictionTests {
    @Test func evictionFromTheAssetStoreRemovesTheSampleFromTheServer() async throws {
        let (server, config, engine) = try startSoundEngine(.sampleCache)
        defer { server.stop(); config.remove() }
        let bytes = TestSound.wav(seconds: 0.5)
        let one = try SoundDecoder.decode(bytes, name: "one").byteCount
        // Room for one sound: loading a second evicts the first.
        let store = AssetStore<LoadedSound>(
            budget: one + one / 2, fetch: { _ in (bytes, .source) },
            decode: { path, bytes throws(AssetLoadError) in try await engine.load(SoundPlaybackTests.key(path.value), bytes: bytes) },
            cost: { $0.byteCount }, release: { await engine.unload($0) })
        let first = try AssetPath(validating: "assets/first.wav"), second = try AssetPath(validating: "assets/second.wav")
        _ = try await store.load(first)
        #expect(server.pactl("list", "samples", "short").contains(PulseSoundEngine.sampleName(SoundPlaybackTests.key(first.value))))
        _ = try await store.load(second)
        #expect(await !store.isLoaded(first))
        let firstName = PulseSoundEngine.sampleName(SoundPlaybackTests.key(first.value))
        #expect(server.waitUntil { !server.sampleNames().contains(firstName) }, "\(server.sampleNames())")
        let samples = server.pactl("list", "samples", "short")
        #expect(samples.contains(PulseSoundEngine.sampleName(SoundPlaybackTests.key(second.value))))
        #expect(!engine.isUploaded(SoundPlaybackTests.key(first.value)))
        await store.clear()
        #expect(server.waitUntil { !server.sampleNames().contains { $0.hasPrefix("pajama.") } }, "\(server.sampleNames())")
        await engine.shutdown()
    }
}
