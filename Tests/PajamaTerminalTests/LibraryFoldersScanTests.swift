import Foundation
import PajamaStorage
import PajamaFormats
import PajamaTerminal
import PajamaTestSupport
import Testing

/// The library of several folders (the reader's own stories and the bundled ones).
@Suite struct LibraryFoldersScanTests {
    @Test func theReadersCopyHidesTheBundledOneAndTheEmptyLibrarySaysHowToAddStories() throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let bundled = PackagePaths.stories.path
        let yours = temp.url.appendingPathComponent("yours")
        try FileManager.default.copyItem(at: PackagePaths.stories.appendingPathComponent("lantern-keeper"), to: yours.appendingPathComponent("lantern-keeper"))
        let manifest = yours.appendingPathComponent("lantern-keeper/story.json")
        let text = try String(contentsOf: manifest, encoding: .utf8).replacingOccurrences(of: "The Lantern Keeper", with: "The Lantern Keeper, new edition")
        try text.write(to: manifest, atomically: true, encoding: .utf8)
        let progress = ProgressStore(folder: temp.url.appendingPathComponent("progress"))
        let library = LibraryFolders(folders: [.init(path: yours.path, origin: .yours), .init(path: bundled, origin: .installed)])
        let entries = LibraryEntry.scan(library, progress: progress, formats: .all)
        let lanterns = entries.filter { $0.id == "lantern-keeper" }
        #expect(lanterns.count == 1 && lanterns.first?.title == "The Lantern Keeper, new edition")
        #expect(entries.count == LibraryEntry.scan(bundled, progress: progress, formats: .all).count)
        #expect(entries.map(\.title) == entries.map(\.title).sorted { $0.localizedCaseInsensitiveCompare($1) == .orderedAscending })

        let empty = LibraryFolders(folders: [.init(path: temp.url.appendingPathComponent("none").path, origin: .yours)])
        #expect(LibraryEntry.scan(empty, progress: progress, formats: .all).isEmpty)
        let screen = LibraryEntry.render([], selected: 0, folder: empty.title, width: 100, height: 20, notice: nil, emptyHint: empty.emptyHint)
        #expect(screen.text().contains("pajama install-story"))
    }
}
