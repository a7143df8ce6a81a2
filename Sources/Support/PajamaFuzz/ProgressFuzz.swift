import PajamaLoading
import PajamaModel
import PajamaReading
import PajamaStorage
import PajamaImage

/// The progress file: the bytes are a story's saved progress, read by the real `ProgressStore` when a real
/// `ReaderViewModel` resumes the story (`FuzzStory`, whose beats all load). Whatever the file says, the
/// reader must land on a page, and every step back through the restored history must land on a page too
/// (never a dead end: a failure with nowhere to go).
public enum ProgressFuzz {
    public static func fuzzOne(_ bytes: [UInt8]) {
        Blocking.run { await check(bytes) }
    }

    /// Where the reader resumed, and how many steps back it then took, each to a page.
    @discardableResult
    public static func check(_ bytes: [UInt8]) async -> (resumed: StoryLocation?, stepsBack: Int) {
        let folder = ScratchFolder.write(bytes, as: "\(FuzzStory.id).json", for: "progress").deletingLastPathComponent()
        return await resume(from: ProgressStore(folder: folder))
    }

    @MainActor
    static func resume(from store: ProgressStore) async -> (resumed: StoryLocation?, stepsBack: Int) {
        let content = StoryContentManager(
            manifest: FuzzStory.manifest, source: MemoryStorySource(files: FuzzStory.files), diskCache: nil,
            decodeImage: { path, bytes throws(AssetLoadError) in try ImageDecoder.decode(path: path, bytes: bytes) },
            sound: nil, preloading: false)
        let reader = ReaderViewModel(content: content, sound: nil, progress: store)
        await reader.start()
        let resumed = reader.location
        var steps = 0
        while true {
            guard case .page(let page) = reader.state else {
                preconditionFailure("after \(steps) step(s) back from the saved place the reader shows \(reader.state), not a page")
            }
            guard page.canGoBack, steps <= ReadingHistory().limit else { break }
            await reader.changePage(.back)
            steps += 1
        }
        await reader.close()
        return (resumed, steps)
    }
}
