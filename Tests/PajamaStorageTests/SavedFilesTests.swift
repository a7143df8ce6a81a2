import Foundation
import PajamaModel
import PajamaStorage
import PajamaTestSupport
import Testing

/// `SavedFiles`: the disk and the tests' `MemoryFiles` keep the same contract, so a test over memory says
/// what the reader does over the disk; and the stores over it (progress, bookmarks, settings) keep theirs.
@Suite struct SavedFilesTests {
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case disk, memory
        var testDescription: String { rawValue }
    }

    /// The files of `kind`, and a folder in them that a test may use.
    private func files(_ kind: Kind) throws -> (SavedFiles, URL, cleanUp: () -> Void) {
        switch kind {
        case .disk:
            let dir = try TemporaryDirectory(prefix: "pajama-saved-files")
            return (.disk, dir.url.appendingPathComponent("kept"), { dir.remove() })
        case .memory:
            return (MemoryFiles().files, URL(fileURLWithPath: "/nowhere/kept"), {})
        }
    }

    @Test(arguments: Kind.allCases) func aWrittenFileIsReadBackWithItsTime(_ kind: Kind) throws {
        let (files, folder, cleanUp) = try files(kind)
        defer { cleanUp() }
        let file = folder.appendingPathComponent("a.json")
        #expect(files.read(file, 100) == .missing)
        #expect(files.modified(file) == nil)
        #expect(files.write(Array("{}".utf8), file) == nil)
        #expect(files.read(file, 100) == .bytes(Array("{}".utf8)))
        let written = try #require(files.modified(file))
        #expect(abs(written.timeIntervalSinceNow) < 60)
        #expect(files.write(Array("[1]".utf8), file) == nil)
        #expect(files.read(file, 100) == .bytes(Array("[1]".utf8)), "a second write replaces the first")
    }

    @Test(arguments: Kind.allCases) func aFileOverTheLimitIsUnusableAndSaysItsSize(_ kind: Kind) throws {
        let (files, folder, cleanUp) = try files(kind)
        defer { cleanUp() }
        let file = folder.appendingPathComponent("big")
        #expect(files.write([UInt8](repeating: 32, count: 2048), file) == nil)
        guard case .unusable(let reason) = files.read(file, 1024) else { Issue.record("read over the limit"); return }
        #expect(reason.hasPrefix("too large: 2 KB"), "\(reason)")
    }

    @Test(arguments: Kind.allCases) func aFileMovedAsideIsGoneFromItsPathAndKeptBesideIt(_ kind: Kind) throws {
        let (files, folder, cleanUp) = try files(kind)
        defer { cleanUp() }
        let file = folder.appendingPathComponent("broken.json")
        #expect(files.write(Array("{".utf8), file) == nil)
        let aside = try files.moveAside(file)
        #expect(aside.deletingLastPathComponent() == file.deletingLastPathComponent())
        #expect(aside.lastPathComponent.hasPrefix("broken.json.corrupt-"), "\(aside.lastPathComponent)")
        #expect(files.read(file, 100) == .missing)
        #expect(files.read(aside, 100) == .bytes(Array("{".utf8)))
        #expect(throws: (any Error).self) { try files.moveAside(file) }
    }

    @Test(arguments: Kind.allCases) func removingAFileThatIsNotThereIsNoProblem(_ kind: Kind) throws {
        let (files, folder, cleanUp) = try files(kind)
        defer { cleanUp() }
        let file = folder.appendingPathComponent("gone.json")
        #expect(files.remove(file) == nil)
        #expect(files.write(Array("1".utf8), file) == nil)
        #expect(files.remove(file) == nil)
        #expect(files.read(file, 100) == .missing)
    }

    /// The stores over memory: broken progress moved aside with the reason, bookmarks trimmed to the
    /// autosaves kept, settings read back; a failing write said with the store's words and the reason.
    @Test func theStoresKeepTheirContractOverMemory() throws {
        let memory = MemoryFiles()
        let folder = URL(fileURLWithPath: "/home/reader/data/pajama")
        let progress = ProgressStore(folder: folder.appendingPathComponent("progress"), files: memory.files)
        let file = folder.appendingPathComponent("progress/s.json")
        memory.put(Array("{\"location\":".utf8), at: file)
        let (loaded, warning) = progress.load(storyId: "s")
        #expect(loaded == nil)
        #expect(warning?.contains("was moved to s.json.corrupt-") == true, "\(warning ?? "")")
        #expect(memory.bytes(at: file) == nil)

        let bookmarks = BookmarkStore(folder: folder.appendingPathComponent("bookmarks"), files: memory.files)
        for n in 0..<(BookmarkStore.autosavesKept + 3) {
            let bookmark = Bookmark(name: "auto \(n)", location: StoryLocation(beatId: "b", pageId: "p\(n)"), history: [], firstWords: "", savedAt: Date())
            #expect(bookmarks.autosave(bookmark, storyId: "s") == nil)
        }
        let autosaves = bookmarks.load(storyId: "s").file.autosaves.map(\.name)
        #expect(autosaves.count == BookmarkStore.autosavesKept && autosaves.last == "auto \(BookmarkStore.autosavesKept + 2)", "\(autosaves)")

        let settingsFile = URL(fileURLWithPath: "/home/reader/config/pajama/sound.json")
        #expect(SoundSettings(volume: 30, muted: true).save(to: settingsFile, files: memory.files) == nil)
        #expect(SoundSettings.load(from: settingsFile, files: memory.files) == SoundSettings(volume: 30, muted: true))
        #expect(SoundSettings.load(from: settingsFile) == SoundSettings(), "the disk has no such file")

        memory.failWrites(with: "No space left on device")
        let problem = try #require(progress.save(storyId: "s", ReadingProgress(location: StoryLocation(beatId: "b", pageId: "p"), history: [])))
        #expect(problem == "cannot save progress: No space left on device (writing \(file.path))", "\(problem)")
        let settingsProblem = try #require(SoundSettings(volume: 40, muted: false).save(to: settingsFile, files: memory.files))
        #expect(settingsProblem.hasPrefix("cannot save the sound settings to \(settingsFile.path): No space left on device"), "\(settingsProblem)")
        #expect(SoundSettings.load(from: settingsFile, files: memory.files) == SoundSettings(volume: 30, muted: true), "the last whole file is kept")
    }
}
