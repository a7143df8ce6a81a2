import Foundation
import PajamaAudio
import PajamaLoading
import PajamaModel
import PajamaReading
import PajamaTestSupport
import Testing

/// The first sound of a story, with the real content manager, the bundled story and a real private
/// server: an `important` page_enter sound that is not loaded when its page opens is loaded and played
/// then (the server sees the play), if the reader is still on that page visit.
@MainActor @Suite(.serialized) struct PageEnterSoundTests {
    let seaWind = try! AssetPath(validating: "assets/sounds/sea-wind.ogg")

    private func open(_ engine: PulseSoundEngine) async throws -> StoryContentManager {
        let story = PackagePaths.stories.appendingPathComponent("lantern-keeper").path
        // No preloading: on the first open nothing is loaded before the page, whatever the machine's speed.
        return try await StoryContentManager.open(
            source: FolderStorySource(folder: story), diskCache: nil,
            decodeImage: { _, _ in .textArt(lines: ["picture"]) }, sound: .live(engine), preloading: false)
    }

    @Test func theImportantPageEnterSoundPlaysOnFirstOpen() async throws {
        let (server, config, engine) = try startSoundEngine(.sampleCache)
        defer { server.stop(); config.remove() }
        let content = try await open(engine)
        #expect(await content.criticality(of: AssetReference(path: seaWind, role: .pageEnterSound, beatId: "start", pageId: "cover")) == .important)
        let watcher = try SinkInputWatcher(server: server)
        defer { watcher.stop() }
        let viewModel = ReaderViewModel(content: content, sound: .live(engine), progress: nil)
        let log = NavigatorEventLog(viewModel.events())
        await viewModel.start()
        #expect(viewModel.location?.pageId == "cover")
        // The server starts a sink input for it: the sea wind really plays on the first open.
        // (Polled without blocking the main actor, where the reader's sound work runs.)
        #expect(await eventually { !watcher.started().isEmpty }, "sink-input events: \(watcher.events()); reader events: \(log.events)")
        #expect(await log.waitFor(.soundPlayed(seaWind, .pageEnter), timeout: .seconds(120)), "\(log.events)")
        #expect(!log.events.contains(.soundSkipped(seaWind, .pageEnter)))
        await content.clearSounds()
        await engine.shutdown()
    }

    @Test func aLatePageEnterSoundIsNotPlayedAfterTheReaderLeftThePage() async throws {
        let (server, config, engine) = try startSoundEngine(.sampleCache)
        defer { server.stop(); config.remove() }
        let content = try await open(engine)
        let viewModel = ReaderViewModel(content: content, sound: .live(engine), progress: nil)
        let log = NavigatorEventLog(viewModel.events())
        // Freeze the server so the sound cannot load before the reader leaves the cover.
        server.pause()
        await viewModel.start()
        await viewModel.changePage(.advance)
        #expect(viewModel.location?.pageId == "rock")
        server.resume()
        #expect(await log.waitFor(.soundSkipped(seaWind, .pageEnter), timeout: .seconds(120)), "\(log.events)")
        #expect(!log.events.contains(.soundPlayed(seaWind, .pageEnter)))
        await content.clearSounds()
        await engine.shutdown()
    }
}
