import Clocks
import Foundation
import PajamaModel
import PajamaReading
import PajamaStorage
import PajamaTestSupport
import Testing

/// A reading's record written behind the reader (`RecordWriter`): progress saves coalesced, at most one write per interval of an injected
/// clock, flushed at the story's end and on close, and the file always the old or the new one. Time is
/// swift-clocks' `TestClock`, which only moves when a test moves it: writes are counted, never timed.
@MainActor @Suite struct RecordWriterTests {
    static func progress(_ n: Int) -> ReadingProgress {
        ReadingProgress(location: StoryLocation(beatId: "b\(n)", pageId: "p"),
                        history: (0...n).map { StoryLocation(beatId: "b\($0)", pageId: "p") }, pagesRead: n)
    }

    @Test func aBurstOfSavesMakesAtMostTwoWritesAndTheLastOneIsOnDisk() async throws {
        let dir = try TemporaryDirectory(prefix: "pajama-writer-burst")
        defer { dir.remove() }
        let store = ProgressStore(folder: dir.url)
        let clock = TestClock()
        let writer = RecordWriter(store: store, interval: .milliseconds(250), settle: .zero, clock: clock)
        for n in 0..<100 { #expect(writer.save(storyId: "s", Self.progress(n)) == nil) }
        // The writer wrote what it found and now rests for the interval (the clock never moves here).
        #expect(await clock.waitForSleeper())
        for n in 100..<200 { _ = writer.save(storyId: "s", Self.progress(n)) }
        #expect(await writer.writes == 1)
        #expect(await writer.flush() == nil)
        #expect(await writer.writes == 2)
        #expect(store.load(storyId: "s").progress == Self.progress(199))
        await writer.close()
        #expect(await writer.writes == 2, "nothing was left to write")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["s.json"])
    }

    @Test func changesWithinTheIntervalWaitForItAndAreWrittenTogether() async throws {
        let dir = try TemporaryDirectory(prefix: "pajama-writer-interval")
        defer { dir.remove() }
        let store = ProgressStore(folder: dir.url)
        let clock = TestClock()
        let writer = RecordWriter(store: store, interval: .milliseconds(250), settle: .zero, clock: clock)
        _ = writer.save(storyId: "s", Self.progress(1))
        #expect(await clock.waitForSleeper())
        #expect(await writer.writes == 1)
        #expect(store.load(storyId: "s").progress == Self.progress(1))
        _ = writer.save(storyId: "s", Self.progress(2))
        _ = writer.save(storyId: "s", Self.progress(3))
        await clock.advance(by: .milliseconds(249))
        #expect(await clock.hasSleeper, "still resting: nothing is written before the interval has passed")
        #expect(await writer.writes == 1)
        await clock.advance(by: .milliseconds(1))
        #expect(await clock.waitForSleeper())  // wrote, and rests again (the first rest ended in the advance)
        #expect(await writer.writes == 2)
        #expect(store.load(storyId: "s").progress == Self.progress(3))
        await writer.close()
    }

    @Test func aWriteWaitsUntilTheReaderHasBeenStillForTheSettleTime() async throws {
        let dir = try TemporaryDirectory(prefix: "pajama-writer-settle")
        defer { dir.remove() }
        let store = ProgressStore(folder: dir.url)
        let clock = TestClock()
        let writer = RecordWriter(store: store, interval: .milliseconds(250), settle: .milliseconds(20), clock: clock)
        _ = writer.save(storyId: "s", Self.progress(1))
        #expect(await clock.waitForSleeper())  // waiting for the reader to be still
        _ = writer.save(storyId: "s", Self.progress(2))  // the next key, within the settle time
        await clock.advance(by: .milliseconds(20))
        #expect(await clock.waitForSleeper())  // the reader moved: it waits again
        #expect(await writer.writes == 0)
        #expect(store.load(storyId: "s").progress == nil)
        await clock.advance(by: .milliseconds(20))
        #expect(await clock.waitForSleeper())  // still for 20 ms: written, and resting for the interval
        #expect(await writer.writes == 1)
        #expect(store.load(storyId: "s").progress == Self.progress(2))
        await writer.close()
        #expect(await writer.writes == 1, "nothing was left to write")
    }

    @Test func aCrashBetweenWritesLeavesTheOldFileWhole() async throws {
        let dir = try TemporaryDirectory(prefix: "pajama-writer-crash")
        defer { dir.remove() }
        let store = ProgressStore(folder: dir.url)
        let clock = TestClock()
        let writer = RecordWriter(store: store, interval: .milliseconds(250), settle: .zero, clock: clock)
        _ = writer.save(storyId: "s", Self.progress(1))
        #expect(await clock.waitForSleeper())
        // The next state is handed over, and a write of it was cut short (its temporary file is half
        // written): the process stops here. What a new reader finds is the old state, whole.
        _ = writer.save(storyId: "s", Self.progress(2))
        try Data("{\"location\":{\"beatId\":\"b".utf8).write(to: dir.url.appendingPathComponent(".s.json.99999.tmp"))
        #expect(store.load(storyId: "s").progress == Self.progress(1))
        // Had it gone on, the new state replaces the old in one step.
        await writer.close()
        #expect(store.load(storyId: "s").progress == Self.progress(2))
    }

    @Test func aRemovalIsOrderedWithTheSavesAroundIt() async throws {
        let dir = try TemporaryDirectory(prefix: "pajama-writer-remove")
        defer { dir.remove() }
        let store = ProgressStore(folder: dir.url)
        let writer = RecordWriter(store: store, interval: .milliseconds(250), clock: TestClock())
        _ = writer.save(storyId: "s", Self.progress(1))
        await writer.flush()
        _ = writer.save(storyId: "s", Self.progress(2))
        writer.remove(storyId: "s")
        await writer.flush()
        #expect(store.load(storyId: "s").progress == nil, "a save handed over before the removal is never written after it")
        writer.remove(storyId: "s")
        _ = writer.save(storyId: "s", Self.progress(3))
        await writer.close()
        #expect(store.load(storyId: "s").progress == Self.progress(3))
    }

    @Test func aFailedWriteIsReportedAtTheNextSave() async throws {
        let dir = try TemporaryDirectory(prefix: "pajama-writer-fail")
        defer { dir.remove() }
        // The progress folder's place is taken by a file: no write can succeed.
        try Data().write(to: dir.url.appendingPathComponent("progress"))
        let clock = TestClock()
        let writer = RecordWriter(store: ProgressStore(folder: dir.url.appendingPathComponent("progress")), settle: .zero, clock: clock)
        _ = writer.save(storyId: "s", Self.progress(1))
        #expect(await clock.waitForSleeper())  // the write was tried
        let problem = try #require(writer.save(storyId: "s", Self.progress(2)))
        #expect(problem.contains("cannot save progress"), "\(problem)")
        #expect(writer.save(storyId: "s", Self.progress(3)) == nil, "reported once")
        // A flush reports its own failure.
        let flushed = try #require(await writer.flush())
        #expect(flushed.contains("cannot save progress"), "\(flushed)")
        await writer.close()
    }

    // MARK: Bookmarks and settings through the same writer

    static func bookmark(_ name: String) -> Bookmark {
        Bookmark(name: name, location: StoryLocation(beatId: "b", pageId: name), history: [StoryLocation(beatId: "b", pageId: name)],
                 firstWords: name, savedAt: Date(timeIntervalSince1970: 0))
    }

    @Test func bookmarksAreWrittenAtOnceInOrderWhileProgressWaitsForTheReaderToBeStill() async throws {
        let dir = try TemporaryDirectory(prefix: "pajama-writer-bookmarks")
        defer { dir.remove() }
        let store = ProgressStore(folder: dir.url.appendingPathComponent("progress"))
        let (told, tell) = AsyncStream.makeStream(of: String.self)
        // The clock never moves: the progress waits for its settle time all through this test.
        let clock = TestClock()
        let writer = RecordWriter(store: store, bookmarks: BookmarkStore(folder: dir.url.appendingPathComponent("bookmarks")),
                                  settle: .milliseconds(20), clock: clock, report: { tell.yield($0) })
        _ = writer.save(storyId: "s", Self.progress(1))
        #expect(await clock.waitForSleeper())
        writer.saveBookmark(Self.bookmark("one"), storyId: "s")
        writer.autosave(Self.bookmark("auto"), storyId: "s")
        writer.saveBookmark(Self.bookmark("two"), storyId: "s")
        // Read after every bookmark handed over before it, whatever the clock says.
        #expect(await writer.bookmarks(storyId: "s").map(\.name) == ["one", "two", "auto"])
        var said = told.makeAsyncIterator()
        #expect(await said.next() == "bookmarked \"one\"")
        #expect(await said.next() == "bookmarked \"two\"", "an autosave is said only when it fails")
        #expect(await writer.writes == 0, "the progress still waits for the reader to be still")
        #expect(store.load(storyId: "s").progress == nil)
        await writer.close()
        #expect(store.load(storyId: "s").progress == Self.progress(1))
    }

    @Test func settingsAreCoalescedPerFileWrittenBehindAndTheirProblemIsTold() async throws {
        let (written, write) = AsyncStream.makeStream(of: String.self)
        let (told, tell) = AsyncStream.makeStream(of: String.self)
        let clock = TestClock()
        let writer = RecordWriter(store: nil, settle: .milliseconds(20), clock: clock, report: { tell.yield($0) })
        let theme = URL(fileURLWithPath: "/nowhere/reader.json"), sound = URL(fileURLWithPath: "/nowhere/sound.json")
        writer.saveSettings(to: theme) { write.yield("theme dark"); return nil }
        #expect(await clock.waitForSleeper())  // the writer waits for the reader to be still
        writer.saveSettings(to: sound) { write.yield("volume 40"); return "no room" }
        writer.saveSettings(to: theme) { write.yield("theme paper"); return nil }
        #expect(await writer.writes == 0)
        await writer.close()
        write.finish()
        var lines: [String] = []
        for await line in written { lines.append(line) }
        #expect(lines == ["volume 40", "theme paper"], "the newest settings of each file, in the order last handed over")
        var said = told.makeAsyncIterator()
        #expect(await said.next() == "no room")
    }

    // MARK: The reading session

    @Test func theStoryEndAndClosingWriteTheNewestStateWithoutWaitingForTheClock() async throws {
        let dir = try TemporaryDirectory(prefix: "pajama-session-progress")
        defer { dir.remove() }
        let store = ProgressStore(folder: dir.url)
        let (manifest, beats) = ReaderViewModelTests.story(lineByLine: false)
        // The clock never moves: only the first save after a quiet spell, the story's end and close() write.
        let clock = TestClock()
        let vm = ReaderViewModel(content: FakeContent(manifest: manifest, beats: beats), sound: nil, progress: store,
                                 progressSettle: .zero, progressClock: clock)
        await vm.start()
        #expect(await clock.waitForSleeper())  // the first page was written; the writer rests
        await vm.changePage(.advance)
        await vm.changePage(.advance)
        // The moves only handed their progress over: no write happened on the key path.
        #expect(store.load(storyId: "s").progress?.location == StoryLocation(beatId: "start", pageId: "title"))
        await vm.close()
        #expect(store.load(storyId: "s").progress?.location == StoryLocation(beatId: "start", pageId: "choose"))

        let reader = ReaderViewModel(content: FakeContent(manifest: manifest, beats: beats), sound: nil, progress: store,
                                     progressClock: TestClock())
        await reader.start()
        #expect(reader.history.locations.last == StoryLocation(beatId: "start", pageId: "choose"))
        await reader.changePage(.choose(1))
        await reader.changePage(.advance)
        guard case .finished = reader.state else { Issue.record("expected finished, got \(reader.state)"); return }
        let saved = try #require(store.load(storyId: "s").progress)
        #expect(saved.finished && saved.location.beatId == "right", "the story's end is written at once: \(saved)")
        await reader.close()
    }
}
