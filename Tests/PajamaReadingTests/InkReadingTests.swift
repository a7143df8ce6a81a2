import Foundation
import PajamaInkBridge
import PajamaLoading
import PajamaModel
import PajamaReading
import PajamaStorage
import PajamaTestSupport
import Testing

/// Ink stories read through `InkStorySource`: beats made as they are asked for, paged, with pictures and
/// sounds from tags, deterministic ids, resume from a saved state or by replaying the way there, and
/// `pajama validate` (docs/ink.md, "Reading ink stories").
@Suite struct InkReadingTests {
    /// A folder holding `story.ink.json` (and any other files given).
    static func folder(_ json: String, files: [String: String] = [:]) throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory(prefix: "pajama-ink")
        try dir.write("story.ink.json", json)
        for (path, contents) in files { try dir.write(path, contents) }
        return dir
    }

    static func source(_ dir: TemporaryDirectory, seed: Int? = 3) -> InkStorySource {
        InkStorySource(base: FolderStorySource(folder: dir.path), file: "story.ink.json", seed: seed)
    }

    static func beat(_ source: InkStorySource, _ id: String) async throws -> Beat {
        try StoryDecoder.decodeBeat(try await source.read("beats/\(id).json"), file: "beats/\(id).json", expectedId: id)
    }

    /// The beat's text: its text pages' lines, and the prompt of its choice page (the line before the choices).
    static func lines(_ beat: Beat) -> [String] {
        beat.pages.flatMap { page -> [String] in
            if case .text(let lines) = page.kind { return lines }
            if case .choice(let prompt?, _) = page.kind { return [prompt] }
            return []
        }
    }

    @Test func theManifestComesFromTheGlobalTagsAndTheFile() async throws {
        let dir = try Self.folder(InkStoryFixtures.paging())
        defer { dir.remove() }
        let manifest = try StoryDecoder.decodeManifest(try await Self.source(dir).read("story.json"))
        #expect(manifest.id == "story")
        #expect(manifest.title == "Paging")
        #expect(manifest.author == "Tests")
        #expect(manifest.startBeatId == "start")
        #expect(manifest.version?.hasPrefix("ink-") == true)
        // `# critical` beside `# image` makes that picture critical wherever it is used.
        #expect(manifest.criticality == [try AssetPath(validating: "images/r.png"): .critical])
        // Another file, another version (so cached pictures and sounds of the old one go stale).
        let changed = try Self.folder(InkStoryFixtures.paging(leftText: "Changed."))
        defer { changed.remove() }
        #expect(try StoryDecoder.decodeManifest(try await Self.source(changed).read("story.json")).version != manifest.version)
    }

    @Test func linesArePagedAtTwelveAtPageTagsAndAtANewPicture() async throws {
        let dir = try Self.folder(InkStoryFixtures.paging())
        defer { dir.remove() }
        let start = try await Self.beat(Self.source(dir), "start")
        #expect(start.pages.map(\.id) == ["title", "p1", "p2", "p3", "p4", "choices"])
        #expect(start.pages[0].kind == .title(title: "Paging", subtitle: "Tests"))
        #expect(start.pages[1].kind == .text(lines: (1...12).map { "Line \($0)." }))
        #expect(start.pages[2].kind == .text(lines: ["Line 13.", "Line 14."]))
        #expect(start.pages[3].kind == .text(lines: ["After the break.", "With a picture."]))
        #expect(start.pages[3].imageUrl?.value == "images/a.png")
        #expect(start.pages[4].kind == .text(lines: ["Another picture."]))
        #expect(start.pages[4].imageUrl?.value == "images/b.png")
        #expect(start.pages[4].pageEnterSounds.map(\.value) == ["sounds/s.wav"])
        // The last line before the choices is their prompt; its page, with a picture of its own, keeps it too.
        if case .choice(let prompt, _) = start.pages[5].kind { #expect(prompt == "Another picture.") } else { Issue.record("\(start.pages[5])") }
        let choices = start.pages[5].choices
        #expect(choices.map(\.text) == ["Go left", "Go right"])
        #expect(choices[1].soundURL?.value == "sounds/step.wav")
        #expect(start.origin?.steps == [])
    }

    @Test func beatIdsAreChainedHashesTheSameOnEveryRun() async throws {
        let dir = try Self.folder(InkStoryFixtures.randomLoop)
        defer { dir.remove() }
        func walk(seed: Int) async throws -> (ids: [String], lines: [String]) {
            let source = Self.source(dir, seed: seed)
            var id = "start"
            var ids: [String] = []
            var lines: [String] = []
            for _ in 0..<4 {
                let beat = try await Self.beat(source, id)
                ids.append(id)
                lines += Self.lines(beat)
                id = try #require(beat.pages.last?.choices.first?.targetBeatId)
            }
            return (ids, lines)
        }
        let first = try await walk(seed: 5)
        let again = try await walk(seed: 5)
        #expect(first.ids == again.ids)
        #expect(first.lines == again.lines)
        #expect(Set(first.ids).count == 4)
        #expect(first.ids.allSatisfy(StoryManifest.isValidId))
        #expect(first.ids[1].hasPrefix("i-") && first.ids[1].count == 18)
        // Another seed: the same ids (the way is the same), other numbers.
        let other = try await walk(seed: 6)
        #expect(other.ids == first.ids)
        #expect(other.lines != first.lines)
    }

    @Test func aBeatNotReachedIsNotFound() async throws {
        let dir = try Self.folder(InkStoryFixtures.randomLoop)
        defer { dir.remove() }
        await #expect(throws: StorySourceError.notFound(path: "beats/i-0123456789abcdef.json")) {
            try await Self.source(dir).read("beats/i-0123456789abcdef.json")
        }
    }

    @Test func aBeatMadeAgainAfterItsStateIsGoneIsTheSame() async throws {
        let dir = try Self.folder(InkStoryFixtures.randomLoop)
        defer { dir.remove() }
        let source = Self.source(dir)
        var id = "start"
        var beats: [Beat] = []
        // More beats than the states kept: the early ones are made again by replaying from the start.
        for _ in 0..<70 {
            let beat = try await Self.beat(source, id)
            beats.append(beat)
            id = beat.pages.last!.choices[0].targetBeatId
        }
        #expect(try await Self.beat(source, beats[2].id) == beats[2])
    }

    @Test func aSavedOriginResumesFromItsStateInAFreshSource() async throws {
        let dir = try Self.folder(InkStoryFixtures.randomLoop)
        defer { dir.remove() }
        let first = Self.source(dir, seed: 11)
        let start = try await Self.beat(first, "start")
        let second = try await Self.beat(first, start.pages.last!.choices[0].targetBeatId)
        let origin = try #require(second.origin)
        #expect(origin.seed == 11 && origin.steps == [0] && origin.state != nil)
        // A new session, another seed at first: the saved seed and state win.
        let resumed = Self.source(dir, seed: 40)
        _ = try await resumed.read("story.json")
        #expect(await resumed.restore(origin) == .restoredAnew)  // another seed, and a state
        #expect(try await Self.beat(resumed, second.id) == second)
        // And back to the start, made again with the saved seed.
        #expect(try await Self.beat(resumed, "start") == start)
    }

    @Test func aChangedStoryIsResumedByReplayingTheChoices() async throws {
        let dir = try Self.folder(InkStoryFixtures.paging())
        defer { dir.remove() }
        let first = Self.source(dir)
        let start = try await Self.beat(first, "start")
        let left = try await Self.beat(first, start.pages.last!.choices[0].targetBeatId)
        #expect(Self.lines(left) == ["Left side."])
        // The file changes: the saved state belongs to the old version and is not used.
        try dir.write("story.ink.json", InkStoryFixtures.paging(leftText: "Left side, revised."))
        let resumed = Self.source(dir)
        _ = try await resumed.read("story.json")
        #expect(await resumed.restore(try #require(left.origin)) == .restored)
        #expect(Self.lines(try await Self.beat(resumed, left.id)) == ["Left side, revised."])
    }

    @Test func aWayThatNoLongerExistsIsSaidAndNotRestored() async throws {
        let dir = try Self.folder(InkStoryFixtures.paging())
        defer { dir.remove() }
        let first = Self.source(dir)
        let start = try await Self.beat(first, "start")
        let right = try await Self.beat(first, start.pages.last!.choices[1].targetBeatId)
        try dir.write("story.ink.json", InkStoryFixtures.paging(choices: 1))
        let resumed = Self.source(dir)
        _ = try await resumed.read("story.json")
        guard case .failed(let reason) = await resumed.restore(try #require(right.origin)) else {
            Issue.record("expected the restore to fail")
            return
        }
        #expect(reason.contains("choice 2 is no longer offered"))
        #expect(reason.contains("reading from the start"))
    }

    @Test func aRuntimeErrorIsAnEndingPageNamingTheInkPath() async throws {
        let dir = try Self.folder(InkStoryFixtures.runtimeError)
        defer { dir.remove() }
        let start = try await Self.beat(Self.source(dir), "start")
        #expect(start.isEnding)
        let lines = Self.lines(start)
        #expect(lines.first == "Before the error.")
        let error = try #require(lines.last)
        #expect(error.hasPrefix("The story stopped: story.ink.json: ink error at \""))
        #expect(error.contains("Divide by zero") || error.contains("division by zero") || error.contains("divide by zero"), "\(error)")
    }

    @Test func aLongRunGoesOnInANextBeat() async throws {
        let dir = try Self.folder(InkStoryFixtures.longRun(130))
        defer { dir.remove() }
        let source = Self.source(dir)
        let start = try await Self.beat(source, "start")
        #expect(Self.lines(start).count == 120)
        let next = try #require(start.nextBeatId)
        let rest = try await Self.beat(source, next)
        #expect(Self.lines(rest) == (121...130).map { "Run \($0)." })
        #expect(rest.isEnding)
        #expect(rest.origin?.steps == [-1])
    }

    @Test func aTagLeadingOutOfTheFolderIsRefusedNamingTheTagAndPath() async throws {
        let dir = try Self.folder(InkStoryFixtures.escapingTag)
        defer { dir.remove() }
        do {
            _ = try await Self.source(dir).read("beats/start.json")
            Issue.record("expected the beat to be refused")
        } catch {
            guard case .invalidPath(let file, let reason) = error else { Issue.record("got \(error)"); return }
            #expect(file == "story.ink.json")
            #expect(reason.contains("the tag \"# image: ../secret.png\" at ink path \"0"))
            #expect(reason.contains("'..'"))
        }
    }

    // MARK: Validation

    struct Probe: AssetProbe {
        func problemWithSound(_ path: AssetPath, _ bytes: [UInt8]) -> String? { bytes == Array("sound".utf8) ? nil : "not a sound" }
        func problemWithImage(_ path: AssetPath, _ bytes: [UInt8]) -> String? { bytes == Array("image".utf8) ? nil : "not an image" }
    }

    @Test func validateChecksEveryAssetATagNames() async throws {
        let dir = try Self.folder(InkStoryFixtures.paging(), files: [
            "images/a.png": "image", "images/b.png": "not really", "sounds/s.wav": "sound", "sounds/step.wav": "sound",
        ])
        defer { dir.remove() }
        let report = await StoryValidator.validate(source: Self.source(dir), probe: Probe())
        #expect(report.storyId == "story")
        #expect(report.exitCode == 1)
        let messages = report.findings.map(\.description)
        #expect(messages.contains { $0.contains("story.ink.json") && $0.contains("the tag \"# image: images/r.png\": images/r.png: the file does not exist") && $0.contains("right") })
        #expect(messages.contains { $0.contains("the tag \"# image: images/b.png\": images/b.png: not an image") })
        #expect(messages.contains { $0.hasPrefix("warning:") && $0.contains("tags the reader does not use (ignored): \"mood\"") })
        #expect(report.errorCount == 2)
    }

    @Test func validateRefusesAnEscapingTagAndWarnsOfADynamicOne() async throws {
        let dir = try Self.folder(InkStoryFixtures.escapingTag)
        defer { dir.remove() }
        let report = await StoryValidator.validate(source: Self.source(dir), probe: Probe())
        let messages = report.findings.map(\.description)
        #expect(messages.contains { $0.hasPrefix("error:") && $0.contains("the tag \"# image: ../secret.png\": image: a '..' or '.' segment is not allowed") })
        #expect(messages.contains { $0.hasPrefix("warning:") && $0.contains("a tag built while the story runs cannot be checked") })
    }

    @Test func validateSaysWhyAFileIsNotInk() async throws {
        let dir = try Self.folder(#"{"inkVersion":40,"root":[]}"#)
        defer { dir.remove() }
        let report = await StoryValidator.validate(source: Self.source(dir), probe: Probe())
        #expect(report.exitCode == 1)
        #expect(report.findings.first?.message.contains("newer than the current version of the engine") == true)
    }
}

/// The reader over an ink story: the real loading engine and saved progress, across two sessions.
@MainActor @Suite struct InkResumeTests {
    static func open(_ dir: TemporaryDirectory, seed: Int) async throws -> StoryContentManager {
        try await StoryContentManager.open(
            source: InkReadingTests.source(dir, seed: seed), diskCache: nil,
            decodeImage: { _, bytes throws(AssetLoadError) in .textArt(lines: [String(decoding: bytes, as: UTF8.self)]) },
            sound: nil, preloading: true)
    }

    func page(_ vm: ReaderViewModel) -> PageState? {
        if case .page(let p) = vm.state { return p }
        return nil
    }

    @Test func aReadingResumesOnTheSamePageWithTheSameTextAndGoesBack() async throws {
        let dir = try InkReadingTests.folder(InkStoryFixtures.randomLoop)
        defer { dir.remove() }
        let progress = try TemporaryDirectory(prefix: "pajama-ink-progress")
        defer { progress.remove() }
        let store = ProgressStore(folder: progress.url)
        let first = ReaderViewModel(content: try await Self.open(dir, seed: 21), sound: nil, progress: store)
        await first.start()
        var texts: [[String]] = []
        for _ in 0..<3 {
            await first.changePage(.advance)  // from the title page to the first: the number, above the choice
            texts.append(InkReadingTests.lines(try #require(page(first)?.beat)))
            await first.changePage(.choose(0))
        }
        let place = try #require(page(first)?.location)
        let shown = try #require(page(first)?.page)
        await first.close()
        let saved = try #require(store.load(storyId: "story").progress)
        #expect(saved.origin?.seed == 21)
        #expect(saved.origin?.steps == [0, 0, 0])

        // A new session whose source would pick another seed: the saved one is used, the page is the same.
        let second = ReaderViewModel(content: try await Self.open(dir, seed: 77), sound: nil, progress: store)
        await second.start()
        #expect(page(second)?.location == place)
        #expect(page(second)?.page == shown)
        // Back goes to the beat before (one page: its number is its choices' prompt), made again with the saved seed.
        await second.changePage(.back)
        #expect(InkReadingTests.lines(try #require(page(second)?.beat)) == texts[2])
        await second.close()
    }

    @Test func aProgressWhoseWayIsGoneStartsOverAndSaysWhy() async throws {
        let dir = try InkReadingTests.folder(InkStoryFixtures.paging(), files: ["images/r.png": "r"])
        defer { dir.remove() }
        let progress = try TemporaryDirectory(prefix: "pajama-ink-progress")
        defer { progress.remove() }
        let store = ProgressStore(folder: progress.url)
        let first = ReaderViewModel(content: try await Self.open(dir, seed: 1), sound: nil, progress: store)
        await first.start(at: StoryLocation(beatId: "start", pageId: "choices"))
        await first.changePage(.choose(1))
        #expect(page(first)?.location.beatId.hasPrefix("i-") == true)
        await first.close()

        let saved = try #require(store.load(storyId: "story").progress)
        #expect(saved.origin?.steps == [1])
        try dir.write("story.ink.json", InkStoryFixtures.paging(choices: 1))
        let second = ReaderViewModel(content: try await Self.open(dir, seed: 1), sound: nil, progress: store)
        let events = second.events()
        await second.start()
        #expect(page(second)?.location == StoryLocation(beatId: "start", pageId: "title"))
        await second.close()
        var notices: [String] = []
        for await event in events { if case .notice(let text) = event { notices.append(text) } }
        #expect(notices.contains { $0.contains("could not be found again") && $0.contains("choice 2 is no longer offered") })
    }

    @Test func aBookmarkOpensItsBeatInANewSession() async throws {
        let dir = try InkReadingTests.folder(InkStoryFixtures.randomLoop)
        defer { dir.remove() }
        let data = try TemporaryDirectory(prefix: "pajama-ink-bookmarks")
        defer { data.remove() }
        let bookmarks = BookmarkStore(folder: data.url)
        let first = ReaderViewModel(content: try await Self.open(dir, seed: 8), sound: nil, progress: nil, bookmarks: bookmarks)
        await first.start()
        for _ in 0..<2 {
            await first.changePage(.advance)
            await first.changePage(.advance)
            await first.changePage(.choose(0))
        }
        await first.changePage(.advance)
        let marked = try #require(page(first))
        first.saveBookmark(name: "here")
        await first.close()
        let bookmark = try #require(bookmarks.load(storyId: "story").file.named("here"))
        #expect(bookmark.origin?.steps == [0, 0])

        let second = ReaderViewModel(content: try await Self.open(dir, seed: 50), sound: nil, progress: nil, bookmarks: bookmarks)
        await second.start(bookmark: bookmark)
        #expect(page(second)?.location == marked.location)
        #expect(page(second)?.page == marked.page)
        await second.close()
    }
}

/// The preloader over an ink story: the beats after a choice page are made ahead (the runtime runs ahead,
/// one beat per choice) and the pictures their tags name are loaded before the reader gets there.
@Suite struct InkPreloadTests {
    @Test func theBeatsAfterAChoicePageAndTheirPicturesArePreloaded() async throws {
        let dir = try InkReadingTests.folder(InkStoryFixtures.paging(), files: ["images/r.png": "r", "images/a.png": "a", "images/b.png": "b"])
        defer { dir.remove() }
        let content = try await InkResumeTests.open(dir, seed: 2)
        let start = try await content.loadBeat("start")
        let targets = try #require(start.pages.last?.choices.map(\.targetBeatId))
        #expect(content.resident.beat(targets[1]) == nil)
        await content.readerMoved(to: StoryLocation(beatId: "start", pageId: "choices"))
        let picture = try AssetPath(validating: "images/r.png")
        await content.settlePreloads()  // the window's work done: no poll
        #expect(content.resident.image(picture) != nil, "the right beat's critical picture is preloaded")
        for id in targets { #expect(content.resident.beat(id) != nil, "the beat \(id) after the choices is preloaded") }
    }
}

/// A co-reading follower of an ink story (`ReaderViewModel.follow`): its own runtime makes the owner's beats
/// from the owner's seed and choices, and a state that differs from the owner's is replaced by the owner's.
@MainActor @Suite struct InkFollowTests {
    func page(_ vm: ReaderViewModel) -> PageState? {
        if case .page(let p) = vm.state { return p }
        return nil
    }

    @Test func aFollowerMakesTheOwnersBeatsAndIsInStep() async throws {
        let dir = try InkReadingTests.folder(InkStoryFixtures.randomLoop)
        defer { dir.remove() }
        let owner = ReaderViewModel(content: try await InkResumeTests.open(dir, seed: 4), sound: nil, progress: nil)
        let follower = ReaderViewModel(content: try await InkResumeTests.open(dir, seed: 90), sound: nil, progress: nil)
        await owner.start()
        for move in [PageMove.advance, .advance, .choose(0), .advance, .choose(0)] {
            await owner.changePage(move)
            let shown = try #require(page(owner))
            #expect(await follower.follow(shown.location, sync: BeatSync(shown.beat)) == .inStep)
            #expect(page(follower)?.location == shown.location)
            #expect(page(follower)?.page == shown.page, "the follower's random numbers are the owner's")
        }
        await owner.close()
        await follower.close()
    }

    @Test func aFollowerOutOfStepIsMadeAgainFromTheOwnersState() async throws {
        let dir = try InkReadingTests.folder(InkStoryFixtures.randomLoop)
        defer { dir.remove() }
        let owner = ReaderViewModel(content: try await InkResumeTests.open(dir, seed: 4), sound: nil, progress: nil)
        let follower = ReaderViewModel(content: try await InkResumeTests.open(dir, seed: 90), sound: nil, progress: nil)
        await owner.start()
        for move in [PageMove.advance, .advance, .choose(0)] { await owner.changePage(move) }
        let shown = try #require(page(owner))
        // The follower is told another seed than the owner's runtime ran with: its state differs from the hash.
        var sync = try #require(BeatSync(shown.beat))
        sync.origin.seed = 5
        #expect(await follower.follow(shown.location, sync: sync) == .resynced)
        #expect(page(follower)?.page == shown.page)
        // Without the owner's state to fall back on, it says it is out of step.
        let other = ReaderViewModel(content: try await InkResumeTests.open(dir, seed: 90), sound: nil, progress: nil)
        sync.origin.state = nil
        #expect(await other.follow(shown.location, sync: sync) == .outOfStep)
        await owner.close()
        await follower.close()
        await other.close()
    }
}
