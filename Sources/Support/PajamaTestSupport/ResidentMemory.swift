import PajamaLoading
import PajamaModel

/// The memory of a test fake of `StoryContent`: what its loads have put there, answered at once as the live
/// content's resident view answers (`ResidentContent`), so a fake and the app share one way of asking. A
/// fake's loads `keep` what they load; a test may `forget` it again.
public final class ResidentMemory: ResidentContent {
    private struct Held {
        var beats: [String: Beat] = [:]
        var images: [AssetPath: StoryImage] = [:]
        var sounds: [AssetPath: LoadedSound] = [:]
    }

    private let held = Locked(Held())
    private let manifest: StoryManifest
    private let picturesGateEntry: Bool

    /// `picturesGateEntry`: a page's critical pictures (by `manifest`) must be in memory for it to be entered at
    /// once, as in the live content; false for a fake whose pictures never hold a page back. Sounds never do here.
    public init(manifest: StoryManifest, picturesGateEntry: Bool = true) {
        self.manifest = manifest
        self.picturesGateEntry = picturesGateEntry
    }

    public func beat(_ id: String) -> Beat? { held.withLock { $0.beats[id] } }
    public func image(_ path: AssetPath) -> StoryImage? { held.withLock { $0.images[path] } }
    public func sound(_ path: AssetPath) -> LoadedSound? { held.withLock { $0.sounds[path] } }

    public func criticalAssetsLoaded(for location: StoryLocation, in beat: Beat) -> Bool {
        guard picturesGateEntry, let page = beat.page(withId: location.pageId) else { return true }
        let critical = page.assetReferences(beatId: beat.id).filter { manifest.criticality(of: $0) == .critical && !$0.role.isSound }
        return held.withLock { held in critical.allSatisfy { held.images[$0.path] != nil } }
    }

    public func keep(_ beat: Beat) { held.withLock { $0.beats[beat.id] = beat } }
    public func keep(_ image: StoryImage, at path: AssetPath) { held.withLock { $0.images[path] = image } }
    public func keep(_ sound: LoadedSound, at path: AssetPath) { held.withLock { $0.sounds[path] = sound } }
    public func forgetBeat(_ id: String) { held.withLock { _ = $0.beats.removeValue(forKey: id) } }
}
