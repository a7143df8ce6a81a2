import PajamaModel

/// `StoryContentManager`'s memory, read at once (`ResidentContent`): beats from the memory tier, pictures and
/// sounds from the asset stores, each behind its own lock, with the gate's criticality (run-time overrides,
/// else story.json). The manager's own gate (`loadCriticalAssets`) asks it too, so the reader's answers and the
/// actor's are the same. A beat read here counts as a use of it (`InMemoryBeatCache.resident`).
final class ResidentStoryContent: ResidentContent {
    private let storage: BeatStorageCoordinator
    private let images: AssetStore<StoryImage>
    private let sounds: AssetStore<LoadedSound>?
    private let sound: SoundClient?
    private let overrides: CriticalityOverrides
    private let manifest: Locked<StoryManifest>

    init(storage: BeatStorageCoordinator, images: AssetStore<StoryImage>, sounds: AssetStore<LoadedSound>?, sound: SoundClient?,
         overrides: CriticalityOverrides, manifest: Locked<StoryManifest>) {
        self.storage = storage
        self.images = images
        self.sounds = sounds
        self.sound = sound
        self.overrides = overrides
        self.manifest = manifest
    }

    func beat(_ id: String) -> Beat? { storage.resident(id) }

    func image(_ path: AssetPath) -> StoryImage? { images.resident(path) }

    func sound(_ path: AssetPath) -> LoadedSound? { sounds?.resident(path) }

    /// The criticality of one use of an asset: run-time override, else story.json, else the format's default.
    func criticality(of reference: AssetReference) -> Criticality {
        overrides.level(for: reference.path) ?? manifest.withLock { $0 }.criticality(of: reference)
    }

    /// Sounds count only while a sound server is there (reading never waits on a missing one).
    func criticalAssetsLoaded(for location: StoryLocation, in beat: Beat) -> Bool {
        guard let page = beat.page(withId: location.pageId) else { return true }
        for ref in page.assetReferences(beatId: beat.id) where criticality(of: ref) == .critical {
            if ref.role.isSound {
                if soundIsOn, let sounds, !sounds.isResident(ref.path) { return false }
            } else if !images.isResident(ref.path) {
                return false
            }
        }
        return true
    }

    /// Whether sounds are loaded at all: a sound client that is not off.
    var soundIsOn: Bool {
        guard sounds != nil, let sound else { return false }
        if case .off = sound.state { return false }
        return true
    }
}
