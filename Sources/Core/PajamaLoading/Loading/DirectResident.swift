import PajamaModel

/// What a `DirectStoryContent` has in memory, bounded as the live content's memory is (the newest 100 beats
/// within 50 MB, as `InMemoryBeatCache`; 64 MB of pictures), each behind its own lock: read at once from any
/// thread (`ResidentContent`). There is no sound.
final class DirectResident: ResidentContent {
    private let manifest: StoryManifest
    private let beats = Locked(LRUCache<String, Beat>(costLimit: 50 * 1024 * 1024, countLimit: 100))
    private let images = Locked(LRUCache<AssetPath, StoryImage>(costLimit: 64 << 20))

    init(manifest: StoryManifest) { self.manifest = manifest }

    /// The beat if kept, without counting as a use (the reader's question, as the live content answers it).
    func beat(_ id: String) -> Beat? { beats.withLock { $0.peek(id) } }

    /// The beat if kept, counted as a use (a load).
    func use(_ id: String) -> Beat? { beats.withLock { $0.value(for: id) } }

    func keep(_ beat: Beat) {
        let cost = BeatSize.estimate(beat)
        beats.withLock { _ = $0.insert(beat, for: beat.id, cost: cost) }
    }

    func image(_ path: AssetPath) -> StoryImage? { images.withLock { $0.value(for: path) } }

    func keep(_ image: StoryImage, at path: AssetPath) {
        images.withLock { _ = $0.insert(image, for: path, cost: image.byteCount) }
    }

    func sound(_ path: AssetPath) -> LoadedSound? { nil }

    /// Whether the story says this use of a picture gates its page.
    func isCritical(_ reference: AssetReference) -> Bool { manifest.criticality(of: reference) == .critical }

    func criticalAssetsLoaded(for location: StoryLocation, in beat: Beat) -> Bool {
        guard let page = beat.page(withId: location.pageId) else { return true }
        return page.assetReferences(beatId: beat.id).allSatisfy { reference in
            reference.role.isSound || !isCritical(reference) || images.withLock { $0.contains(reference.path) }
        }
    }
}
