import Foundation
import PajamaModel
import PajamaStorage
import PajamaTerminal
import PajamaTestSupport
import Testing

/// The reader over `MemoryFiles` (the test value of `SavedFiles`, docs/architecture.md "Storage"): what it
/// saves goes through the real stores and writer but never to the disk, and a write that fails is said as
/// the disk's would be (the tmpfs of DiskFullEndToEndTests is the same case on a real disk).
@MainActor @Suite struct SavedFilesReadingTests {
    let story = PackagePaths.stories.appendingPathComponent("lantern-keeper").path

    @Test func aSecondReadingResumesFromFilesKeptInMemoryAndNothingReachesTheDisk() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-memory-files")
        defer { home.remove() }
        let memory = MemoryFiles()
        let first = HeadlessReading.read(story, home: home, start: ("storm", "what_now"), files: memory.files)
        try await first.waitFor("What will Mina do?")
        try await first.type("2", thenWaitFor: "The door banged open")
        #expect(await first.quit() == 0)
        let progress = first.paths.progress.appendingPathComponent("lantern-keeper.json").path
        #expect(memory.paths.contains(progress), "\(memory.paths)")

        let second = HeadlessReading.read(story, home: home, files: memory.files)
        try await second.waitFor("The door banged open")
        #expect(await second.quit() == 0)
        #expect(!FileManager.default.fileExists(atPath: home.url.appendingPathComponent("data").path), "the reading wrote to the disk")
    }

    /// Reading goes on, back and forth; the status line says why nothing is saved, and the progress
    /// kept is the last whole one.
    @Test func writesThatFailMidStoryOnlyStopTheSaving() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-memory-full")
        defer { home.remove() }
        let memory = MemoryFiles()
        let reading = HeadlessReading.read(story, home: home, start: ("storm", "what_now"), files: memory.files)
        try await reading.waitFor("What will Mina do?")
        try await reading.waitForProgress("lantern-keeper") { $0.location.beatId == "storm" && $0.location.pageId == "what_now" }
        memory.failWrites(with: "No space left on device")
        // Each page's save is written behind the reader and refused; a move is told of the refusal noted
        // before it (the problem is noted just after the write returns, so a move made at that moment is
        // told at the next one). Back and forth until a move says it: the progress's, or the autosave's
        // made before a choice ("cannot save bookmark: ..."), whichever came last.
        let said = "No space left on device"
        var moves = 0
        while !reading.terminal.text.contains(said) {
            let refused = memory.refusedWrites
            let (key, page) = moves % 2 == 0 ? (Key.character("1"), "Up went Mina") : (Key.left, "What will Mina do?")
            try await reading.press(key, thenWaitFor: page)
            moves += 1
            #expect(await eventually(timeout: HeadlessReading.timeout) {
                reading.terminal.text.contains(said) || memory.refusedWrites > refused
            }, "the move's save was not tried")
            #expect(moves < 20, "no move said why progress is not saved")
            if moves >= 20 { break }
        }
        #expect(await reading.quit() == 0)
        let kept = try #require(reading.paths.progressStore.load(storyId: "lantern-keeper").progress)
        #expect(kept.location.beatId == "storm" && kept.location.pageId == "what_now", "\(kept.location)")
    }
}
