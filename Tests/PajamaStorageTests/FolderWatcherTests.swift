import Foundation
import PajamaModel
import PajamaStorage
import PajamaTestSupport
import Testing

/// The watcher on a real folder with real inotify: a file written in place, replaced by a rename, deleted and
/// made again, a new folder and a file in it; and the thread ending (its descriptor closed) when stopped or
/// when its consumer goes away. Every wait has a deadline; none is a fixed sleep.
@Suite struct FolderWatcherTests {
    /// Collects the watcher's batches in a task; `waitFor` waits until what was collected holds.
    final class Collected: Sendable {
        let batches = Locked<[[FolderEvent]]>([])
        let ended = Locked(false)

        func start(_ watcher: FolderWatcher) -> Task<Void, Never> {
            Task { [batches = watcher.batches] in
                for await batch in batches { self.batches.withLock { $0.append(batch) } }
                self.ended.withLock { $0 = true }
            }
        }

        var events: [FolderEvent] { batches.withLock { $0.flatMap { $0 } } }

        func waitFor(_ event: FolderEvent) async -> Bool {
            await eventually(timeout: .seconds(20)) { self.events.contains(event) }
        }

        func clear() { batches.withLock { $0 = [] } }
    }

    func story() throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory(prefix: "pajama-watch")
        try dir.write("story.json", #"{"format":1,"id":"w","title":"W","startBeatId":"start"}"#)
        try dir.write("beats/start.json", #"{"id":"start","pages":[{"id":"p","type":"text","lines":["a"]}]}"#)
        try dir.write("assets/images/a.txt", "art")
        return dir
    }

    @Test func writesRenamesDeletesAndNewFoldersAreSeen() async throws {
        let dir = try story()
        defer { dir.remove() }
        let watcher = try FolderWatcher(folder: dir.path, quiet: .milliseconds(30))
        let collected = Collected()
        let task = collected.start(watcher)
        defer { task.cancel() }

        // Written in place (a nested folder watched from the start).
        try dir.write("assets/images/a.txt", "new art")
        #expect(await collected.waitFor(FolderEvent(.written, "assets/images/a.txt")))

        // Replaced by a rename, as editors save: the old inode is gone, the folder's watch still sees it.
        collected.clear()
        try dir.write("beats/.start.json.tmp", #"{"id":"start","pages":[{"id":"p","type":"text","lines":["b"]}]}"#)
        #expect(rename(dir.path + "/beats/.start.json.tmp", dir.path + "/beats/start.json") == 0)
        #expect(await collected.waitFor(FolderEvent(.written, "beats/start.json")))
        #expect(StoryChange.plan(collected.events).beats == ["start"])

        // Deleted, then made again.
        collected.clear()
        try FileManager.default.removeItem(atPath: dir.path + "/story.json")
        #expect(await collected.waitFor(FolderEvent(.removed, "story.json")))
        try dir.write("story.json", #"{"format":1,"id":"w","title":"W2","startBeatId":"start"}"#)
        #expect(await collected.waitFor(FolderEvent(.written, "story.json")))

        // A new folder is watched from then on; a file in it is seen.
        collected.clear()
        try FileManager.default.createDirectory(atPath: dir.path + "/assets/sounds", withIntermediateDirectories: false)
        #expect(await collected.waitFor(FolderEvent(.folderAdded, "assets/sounds")))
        try dir.write("assets/sounds/b.wav", "RIFF")
        #expect(await collected.waitFor(FolderEvent(.written, "assets/sounds/b.wav")))

        // A folder moved away goes with its files; moved back, it is watched again.
        collected.clear()
        #expect(rename(dir.path + "/assets/sounds", dir.path + "/sounds-aside") == 0)
        #expect(await collected.waitFor(FolderEvent(.folderRemoved, "assets/sounds")))
        #expect(rename(dir.path + "/sounds-aside", dir.path + "/assets/sounds") == 0)
        #expect(await collected.waitFor(FolderEvent(.written, "assets/sounds/b.wav")))

        await watcher.close()
        #expect(watcher.hasEnded)
        #expect(await eventually(timeout: .seconds(20)) { collected.ended.withLock { $0 } }, "the batches end with the watcher")
    }

    @Test func aFolderMovedInBringsItsFiles() async throws {
        let dir = try story()
        let outside = try TemporaryDirectory(prefix: "pajama-watch-outside")
        defer { dir.remove(); outside.remove() }
        try outside.write("pack/deep/c.txt", "c")
        let watcher = try FolderWatcher(folder: dir.path, quiet: .milliseconds(30))
        let collected = Collected()
        let task = collected.start(watcher)
        defer { task.cancel() }
        #expect(rename(outside.path + "/pack", dir.path + "/assets/pack") == 0)
        #expect(await collected.waitFor(FolderEvent(.written, "assets/pack/deep/c.txt")))
        try dir.write("assets/pack/deep/d.txt", "d")
        #expect(await collected.waitFor(FolderEvent(.written, "assets/pack/deep/d.txt")), "its folders are watched too")
        await watcher.close()
    }

    @Test func theThreadEndsWhenTheConsumerGoesAway() async throws {
        let dir = try story()
        defer { dir.remove() }
        let watcher = try FolderWatcher(folder: dir.path)
        let collected = Collected()
        let task = collected.start(watcher)
        task.cancel()  // the owner quits: the stream ends, and with it the thread
        #expect(await eventually(timeout: .seconds(20)) { watcher.hasEnded })
        await watcher.close()  // after the end: returns at once
    }

    @Test func aFolderThatIsNotThereCannotBeWatched() throws {
        #expect(throws: FolderWatcher.Failure.self) { try FolderWatcher(folder: "/nonexistent/pajama-watch") }
    }
}
