import PajamaModel

/// A local story's content read straight from its source, for a reading that waits for every move (`pajama
/// play`): no tiers, no preloader, no retries, no task and no actor of its own, so a move never leaves the
/// reader's thread. A beat is made by a runtime the content owns (`OwnRuntimeSource`: ink, Twine,
/// ChoiceScript), else asked of the source, else read from its file and decoded; a picture is read and
/// decoded. The errors are the live content's (`SourceBeat`, `AssetLoadError` of the source's), and what was
/// had stays in memory as there (`DirectResident`), so the reader reads the same story the same way.
///
/// Over a network the loading engine's retries and disk cache are what a reading needs: a remote story is read
/// through `StoryContentManager`.
public final class DirectStoryContent: StoryContent {
    public let manifest: StoryManifest
    public let source: any StorySource
    /// The story's own runtime, when the source gives one; used under its lock, one beat at a time.
    private let runtime: Locked<OwnedRuntime>?
    private let decodeImage: StoryContentManager.ImageDecoding
    private let memory: DirectResident
    public var resident: any ResidentContent { memory }
    /// Nothing is preloaded: the reader's moves are not handed over.
    public var followsReader: Bool { false }

    private init(manifest: StoryManifest, source: any StorySource, runtime: Locked<OwnedRuntime>?,
                 decodeImage: @escaping StoryContentManager.ImageDecoding) {
        self.manifest = manifest
        self.source = source
        self.runtime = runtime
        self.decodeImage = decodeImage
        memory = DirectResident(manifest: manifest)
    }

    /// Opens the story at `source`: its runtime made (or its story.json read) and story.json decoded; the
    /// errors are `StoryContentManager.open`'s.
    public static func open(source: any StorySource, decodeImage: @escaping StoryContentManager.ImageDecoding) async throws(AssetLoadError)
        -> DirectStoryContent
    {
        var runtime: OwnedRuntime?
        let bytes: [UInt8]
        do throws(StorySourceError) {
            if let owning = source as? any OwnRuntimeSource {
                let owned = try await owning.ownRuntime()
                bytes = owned.manifest
                runtime = owned
            } else {
                bytes = try await source.read("story.json")
            }
        } catch {
            throw AssetLoadError(error)
        }
        let manifest: StoryManifest
        do {
            manifest = try StoryDecoder.decodeManifest(bytes)
        } catch {
            throw AssetLoadError(.invalidFormat, subject: "story.json", detail: error.description)
        }
        return DirectStoryContent(manifest: manifest, source: source, runtime: runtime.map { Locked($0) }, decodeImage: decodeImage)
    }

    // MARK: Beats

    public nonisolated(nonsending) func loadBeat(_ id: String) async throws(AssetLoadError) -> Beat {
        if let beat = memory.use(id) { return beat }
        try SourceBeat.checkId(id)
        let beat = try await fromSource(id)
        memory.keep(beat)
        return beat
    }

    /// The beat as the source gives it: made by the owned runtime, else by the source, else read from its file.
    private nonisolated(nonsending) func fromSource(_ id: String) async throws(AssetLoadError) -> Beat {
        let path = SourceBeat.path(of: id)
        if let runtime {
            let made: Beat
            do {
                made = try runtime.withLock { runtime throws(StorySourceError) in try runtime.makeBeat(id, path) }
            } catch {
                throw SourceBeat.error(error, id: id)
            }
            return try SourceBeat.checked(made, id: id)
        }
        if source.makesBeats {
            let made: Beat?
            do {
                made = try await source.madeBeat(id)
            } catch {
                throw SourceBeat.error(error, id: id)
            }
            if let made { return try SourceBeat.checked(made, id: id) }
        }
        let bytes: [UInt8]
        do {
            bytes = try await source.read(path)
        } catch {
            throw SourceBeat.error(error, id: id)
        }
        return try SourceBeat.decoded(bytes, id: id)
    }

    public nonisolated(nonsending) func restore(_ origin: BeatOrigin) async -> OriginRestore {
        if let runtime { return runtime.withLock { $0.restore(origin) } }
        return await source.restore(origin)
    }

    public nonisolated(nonsending) func readerMoved(to location: StoryLocation) async {}

    // MARK: Assets

    /// The page's critical pictures (there is no sound: sounds never gate the page).
    public nonisolated(nonsending) func loadCriticalAssets(for location: StoryLocation, in beat: Beat) async throws(AssetLoadError) {
        guard let page = beat.page(withId: location.pageId) else { return }
        for reference in page.assetReferences(beatId: beat.id) where !reference.role.isSound && memory.isCritical(reference) {
            _ = try await loadImage(reference.path)
        }
    }

    public nonisolated(nonsending) func loadImage(_ path: AssetPath) async throws(AssetLoadError) -> StoryImage {
        if let image = memory.image(path) { return image }
        let bytes: [UInt8]
        do {
            bytes = try await source.read(path.value)
        } catch {
            throw AssetLoadError(error)
        }
        let image = try decodeImage(path, bytes)
        memory.keep(image, at: path)
        return image
    }

    public nonisolated(nonsending) func loadSound(_ path: AssetPath) async throws(AssetLoadError) -> LoadedSound {
        throw AssetLoadError(.soundOff, subject: path.value, detail: "sound is off")
    }
}
