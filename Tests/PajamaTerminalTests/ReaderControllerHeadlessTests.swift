import Foundation
import PajamaLoading
import PajamaModel
import PajamaReading
import PajamaStorage
import PajamaTerminal
import PajamaTestSupport
import Testing

/// The real loop (`ReaderController`) with a real `ReaderViewModel` over a story folder, on a
/// `HeadlessTerminal`: keys in, frames out, no terminal.
@MainActor @Suite struct ReaderControllerHeadlessTests {
    struct Session {
        let dir: TemporaryDirectory
        let terminal: HeadlessTerminal
        let controller: ReaderController
        let paths: Paths
        let run: Task<ReaderController.Outcome, Never>
        /// The session's view model (closed by its owner, `ReaderApp`, once the controller returns).
        let viewModel: ReaderViewModel
    }

    /// The story folder, with one file whose read never ends (a server that never answers) until the read
    /// is cancelled. The session's retry policy has no progress timeout to speak of, so only the reader can
    /// end the wait.
    struct SilentSource: StorySource {
        let folder: FolderStorySource
        let silent: String
        var location: String { folder.location }
        var isLocal: Bool { false }
        func read(_ path: String) async throws(StorySourceError) -> [UInt8] {
            guard path == silent else { return try await folder.read(path) }
            let never = AsyncStream<Never> { _ in }
            for await _ in never {}  // ends only when the task is cancelled
            throw .cancelled(path: path)
        }
    }

    func start(role: ReaderRole = .solo, silent: String? = nil, sound: SoundClient? = nil) async throws -> Session {
        let dir = try TemporaryDirectory(prefix: "pajama-headless")
        try dir.write("story/story.json", #"{"format":1,"id":"headless","title":"Headless","startBeatId":"hall","beats":["hall","left","right"],"presentation":{"lineByLine":true}}"#)
        try dir.write("story/beats/hall.json", """
            {"id":"hall","pages":[
              {"id":"cover","type":"title","title":"The Hall","subtitle":"a test"},
              {"id":"walk","type":"text","lines":["You walk in.","The doors wait."]},
              {"id":"doors","type":"choice","prompt":"Which door?","choices":[
                {"text":"The left door","targetBeatId":"left"},{"text":"The right door","targetBeatId":"right"}]}]}
            """)
        try dir.write("story/beats/left.json", #"{"id":"left","pages":[{"id":"p","type":"text","lines":["You went left."]}]}"#)
        try dir.write("story/beats/right.json", #"{"id":"right","pages":[{"id":"p","type":"text","lines":["You went right."]}]}"#)
        let folder = FolderStorySource(folder: dir.url.appendingPathComponent("story").path)
        let source: any StorySource = silent.map { SilentSource(folder: folder, silent: $0) } ?? folder
        let content = try await StoryContentManager.open(
            source: source, diskCache: nil, decodeImage: { _, _ in .textArt(lines: []) }, sound: nil,
            retry: RetryPolicy(progressTimeout: .seconds(3600), deadline: .seconds(3600)))
        let paths = Paths(cache: dir.url.appendingPathComponent("cache"), progress: dir.url.appendingPathComponent("progress"),
                          config: dir.url.appendingPathComponent("config"), state: dir.url.appendingPathComponent("state"), themes: [PackagePaths.root.appendingPathComponent("Themes")])
        let terminal = HeadlessTerminal(width: 60, height: 16)
        let viewModel = ReaderViewModel(content: content, sound: nil, progress: nil)
        let controller = ReaderController(
            viewModel: viewModel, content: content, screen: terminal,
            sound: sound, storyTitle: content.manifest.title, themes: ["default", "paper"], paths: paths,
            loadingEvents: content.loadingEvents(), role: role)
        let run = Task { await controller.run(start: nil, restart: false) }
        return Session(dir: dir, terminal: terminal, controller: controller, paths: paths, run: run, viewModel: viewModel)
    }

    @Test func readsPagesTakesAChoiceByClickResizesAndQuits() async throws {
        let s = try await start()
        defer { s.dir.remove() }
        let t = s.terminal
        #expect(await t.waitForFrame(containing: "The Hall"))
        t.push(.character(" "))
        #expect(await t.waitForFrame(containing: "You walk in."))
        t.push(.enter)
        #expect(await t.waitForFrame(containing: "The doors wait."))
        t.push(.right)
        #expect(await t.waitForFrame(containing: "Which door?"))
        // A click on the second choice, where the frame shows it.
        let lines = t.text.split(separator: "\n", omittingEmptySubsequences: false)
        let row = try #require(lines.firstIndex { $0.contains("2. The right door") })
        let column = try #require(lines[row].range(of: "2. ")).lowerBound.utf16Offset(in: lines[row])
        t.push(.click(x: column + 4, y: row))
        #expect(await t.waitForFrame(containing: "You went right."))
        t.push(.left)
        #expect(await t.waitForFrame(containing: "Which door?"))
        t.resize(width: 40, height: 12)
        #expect(await t.waitForFrame { _ in t.lastFrame?.width == 40 && t.lastFrame?.height == 12 })
        #expect(t.invalidations >= 1)
        t.type("q")
        guard case .quit = await s.run.value else { Issue.record("expected quit"); return }
    }

    @Test func backLeavesAPageThatNeverLoadsAndTheReaderReadsOn() async throws {
        // The left door's beat never arrives, and nothing times the wait out. Back used to wait in line
        // behind the move that waited for it: a dead end.
        let s = try await start(silent: "beats/left.json")
        defer { s.dir.remove() }
        let t = s.terminal
        #expect(await t.waitForFrame(containing: "The Hall"))
        t.push(.character(" "), .enter, .right)
        #expect(await t.waitForFrame(containing: "Which door?"))
        t.type("1")
        #expect(await t.waitForFrame(containing: "Loading"))
        t.push(.left)
        #expect(await t.waitForFrame(containing: "Which door?"))
        t.type("2")
        #expect(await t.waitForFrame(containing: "You went right."))
        t.type("q")
        guard case .quit = await s.run.value else { Issue.record("expected quit"); return }
    }

    @Test func theThemeKeyAppliesAndRemembersTheNextTheme() async throws {
        let s = try await start()
        defer { s.dir.remove() }
        let t = s.terminal
        #expect(await t.waitForFrame(containing: "The Hall"))
        // The headless terminal starts with the built-in theme: the first of the list comes next, then the second.
        t.type("t")
        #expect(await t.waitForFrame(containing: "theme: default"))
        t.type("t")
        #expect(await t.waitForFrame(containing: "theme: paper"))
        #expect(t.theme.name == "paper")
        t.sendSignal(SIGTERM)
        guard case .signal(SIGTERM) = await s.run.value else { Issue.record("expected the signal"); return }
        // Written behind the reader, like the progress: on disk once the session has ended.
        await s.viewModel.close()
        #expect(ReaderSettings.load(from: s.paths.readerSettings).theme == "paper")
    }

    /// A sound client with nothing to play whose volume and mute are kept in memory.
    static func quietSound() -> SoundClient {
        let levels = Locked((volume: 80, muted: false))
        return SoundClient(
            load: { key, _ throws(AssetLoadError) in throw AssetLoadError(.network, subject: key.path.value, detail: "no sound") },
            play: { _ in false }, unload: { _ in }, currentState: { levels.withLock { $0.muted } ? .muted : .sampleCache },
            getVolume: { levels.withLock { $0.volume } }, setVolume: { v in levels.withLock { $0.volume = v } },
            getMuted: { levels.withLock { $0.muted } }, setMuted: { m in levels.withLock { $0.muted = m } })
    }

    @Test func theVolumeKeysAreRememberedBehindTheReaderByTheEndOfTheSession() async throws {
        let s = try await start(sound: Self.quietSound())
        defer { s.dir.remove() }
        let t = s.terminal
        #expect(await t.waitForFrame(containing: "The Hall"))
        t.type("+")
        #expect(await t.waitForFrame(containing: "sound: on 90%"))
        t.type("m")
        #expect(await t.waitForFrame(containing: "sound: muted"))
        t.sendSignal(SIGTERM)
        guard case .signal(SIGTERM) = await s.run.value else { Issue.record("expected the signal"); return }
        await s.viewModel.close()
        #expect(SoundSettings.load(from: s.paths.soundSettings) == SoundSettings(volume: 90, muted: true))
    }

    @Test func aFollowerIsToldWhomItFollowsUntilTheSessionEnds() async throws {
        let s = try await start(role: .follower(owner: "Ana"))
        defer { s.dir.remove() }
        let t = s.terminal
        #expect(await t.waitForFrame(containing: "The Hall"))
        t.push(.character(" "))
        // The hint (the status line says "following Ana" from the start).
        #expect(await t.waitForFrame(containing: "only Ana turns the pages"))
        #expect(t.text.contains("The Hall"), "nobody moved")
        s.controller.sessionEnded()
        #expect(await t.waitForFrame(containing: "Ana ended the session"))
        t.push(.character(" "))
        #expect(await t.waitForFrame(containing: "You walk in."))
        t.push(.escape)
        guard case .quit = await s.run.value else { Issue.record("expected quit"); return }
    }

    @Test func theStatusLineSaysHowFarAlongAndWhenTheNextPagesAreReady() async throws {
        let s = try await start()
        defer { s.dir.remove() }
        let t = s.terminal
        t.resize(width: 100, height: 16)  // room for the whole status line beside the sound state
        #expect(await t.waitForFrame(containing: "1 page read · 1 of 3 beats seen"))
        // The next page is in the same beat and has no pictures: the loading engine has it ready.
        #expect(await t.waitForFrame(containing: "1 of 3 beats seen · ▸ ready"))
        t.push(.character(" "))
        #expect(await t.waitForFrame(containing: "You walk in."))
        t.push(.right)
        t.push(.right)
        // On the choice page, ready once the preloader has both doors' beats in memory.
        #expect(await t.waitForFrame { $0.contains("Which door?") && $0.contains("3 pages read · 1 of 3 beats seen · ▸ ready") }, "\(t.text)")
        t.push(.left)
        #expect(await t.waitForFrame { $0.contains("The doors wait.") && $0.contains("4 pages read · 1 of 3 beats seen · seen before") }, "\(t.text)")
        t.type("q")
        guard case .quit = await s.run.value else { Issue.record("expected quit"); return }
    }

    @Test func aKeyOnCachedContentGetsOnePageFrameThatAlreadySaysReady() async throws {
        let s = try await start()
        defer { s.dir.remove() }
        let t = s.terminal
        t.resize(width: 100, height: 16)  // room for the whole status line beside the sound state
        #expect(await t.waitForFrame(containing: "1 of 3 beats seen · ▸ ready"))
        t.recordsFrames = true
        t.push(.character(" "))
        #expect(await t.waitForFrame(containing: "You walk in."))
        // The next page (the doors, in the same beat, no pictures) is in memory: the page's first frame says
        // so, without a second frame after a trip to the content's actor.
        let first = try #require(t.recordedFrames.first { $0.contains("You walk in.") })
        #expect(first.contains("2 pages read · 1 of 3 beats seen · ▸ ready"), "\(first)")
        t.type("q")
        guard case .quit = await s.run.value else { Issue.record("expected quit"); return }
    }

    @Test func eachKeyIsAnsweredByOneFrameOfItsNewPageNotTheOldOne() async throws {
        let s = try await start()
        defer { s.dir.remove() }
        let t = s.terminal
        #expect(await t.waitForFrame(containing: "▸ ready"))
        t.recordsFrames = true
        let turns: [(Key, String)] = [(.character(" "), "You walk in."), (.enter, "The doors wait."), (.right, "Which door?"), (.left, "The doors wait.")]
        for (key, shows) in turns {
            let before = t.recordedFrames.count
            t.push(key)
            #expect(await t.waitForFrame(containing: shows))
            // The key's first frame is already its page's: no frame of the page it left comes first.
            #expect(t.recordedFrames.count > before && t.recordedFrames[before].contains(shows), "\(t.recordedFrames.dropFirst(before))")
        }
        t.type("q")
        guard case .quit = await s.run.value else { Issue.record("expected quit"); return }
        let tally = s.controller.frames.closed
        #expect(tally.keys == turns.count + 1 && tally.keysWithOneFrame >= turns.count - 1, "\(tally.summary)")
    }

    /// A source whose reads of one file wait until the test opens the gate.
    struct GatedPicture: StorySource {
        actor Gate {
            private var open = false
            private var waiting: [CheckedContinuation<Void, Never>] = []
            func pass() async { if !open { await withCheckedContinuation { waiting.append($0) } } }
            func openUp() {
                open = true
                waiting.forEach { $0.resume() }
                waiting = []
            }
        }

        let folder: FolderStorySource
        let gated: String
        let gate = Gate()
        var location: String { folder.location }
        var isLocal: Bool { false }
        func read(_ path: String) async throws(StorySourceError) -> [UInt8] {
            if path == gated { await gate.pass() }
            return try await folder.read(path)
        }
    }

    @Test func readyWaitsForTheNextPagesCriticalPicture() async throws {
        let dir = try TemporaryDirectory(prefix: "pajama-headless")
        defer { dir.remove() }
        try dir.write("story/story.json", """
            {"format":1,"id":"gated","title":"Gated","startBeatId":"hall","beats":["hall"],
             "assets":{"criticality":{"assets/door.png":"critical"}}}
            """)
        try dir.write("story/beats/hall.json", """
            {"id":"hall","pages":[
              {"id":"cover","type":"title","title":"The Hall","subtitle":"a test"},
              {"id":"door","type":"text","lines":["A painted door."],"imageUrl":"assets/door.png"}]}
            """)
        try dir.write("story/assets/door.png", "not really a picture: the fake decoder takes any bytes")
        let source = GatedPicture(folder: FolderStorySource(folder: dir.url.appendingPathComponent("story").path), gated: "assets/door.png")
        let content = try await StoryContentManager.open(
            source: source, diskCache: nil, decodeImage: { _, _ in .textArt(lines: ["#"]) }, sound: nil,
            retry: RetryPolicy(progressTimeout: .seconds(3600), deadline: .seconds(3600)))
        let paths = Paths(cache: dir.url.appendingPathComponent("cache"), progress: dir.url.appendingPathComponent("progress"),
                          config: dir.url.appendingPathComponent("config"), state: dir.url.appendingPathComponent("state"), themes: [])
        let terminal = HeadlessTerminal(width: 100, height: 16)
        terminal.recordsFrames = true
        let controller = ReaderController(
            viewModel: ReaderViewModel(content: content, sound: nil, progress: nil), content: content, screen: terminal,
            sound: nil, storyTitle: content.manifest.title, themes: ["default"], paths: paths, loadingEvents: content.loadingEvents())
        let run = Task { await controller.run(start: nil, restart: false) }
        #expect(await terminal.waitForFrame(containing: "1 page read"))
        // The next page's critical picture cannot have loaded (its read waits at the gate): not ready.
        let first = try #require(terminal.recordedFrames.first { $0.contains("1 page read") })
        #expect(!first.contains("▸ ready"), "\(first)")
        #expect(!terminal.text.contains("▸ ready"), "\(terminal.text)")
        await source.gate.openUp()
        // Once the preloader has it, the status line says so without a key.
        #expect(await terminal.waitForFrame(containing: "1 page read · 1 of 1 beats seen · ▸ ready"), "\(terminal.text)")
        terminal.type("q")
        guard case .quit = await run.value else { Issue.record("expected quit"); return }
    }
}
