/// What a story's content has in memory, read at once on the caller's thread, with no hop to the content's
/// actor (a job on the cooperative pool: a wake of another thread there and back, for every question).
///
/// The reader answers a move to a page whose beat and critical assets are in memory from it, and the status
/// line's "▸ ready" in the same turn, so a key on cached content gets its page in one frame, drawn without
/// waiting for another thread. The answers are those of `StoryContent.cachedBeat` and
/// `criticalAssetsLoaded` (the live content answers those with it too): the gate on critical assets is the
/// same, only asked without waiting.
public protocol ResidentContent: Sendable {
    /// The beat if it is in memory; never waits.
    func beat(_ id: String) -> Beat?
    /// True when every critical asset of the page at `location` is loaded (entry need not wait); never waits.
    func criticalAssetsLoaded(for location: StoryLocation, in beat: Beat) -> Bool
    /// The picture if it is in memory (decoded); never waits. The reader gives a page its picture in the
    /// same turn as the page when it is there.
    func image(_ path: AssetPath) -> StoryImage?
}

extension ResidentContent {
    /// No picture is answered at once: the reader loads it (`StoryContent.loadImage`).
    public func image(_ path: AssetPath) -> StoryImage? { nil }

    /// `StoryContent.nextPagesReady(after:)`, answered at once: every page reading can go to from `page` has
    /// its beat in memory and its critical assets loaded. True at an ending.
    public func nextPagesReady(after page: PageState) -> Bool {
        for place in page.nextPlaces {
            switch place {
            case .page(let location):
                guard criticalAssetsLoaded(for: location, in: page.beat) else { return false }
            case .beatStart(let id):
                guard let beat = beat(id) else { return false }
                guard let first = beat.pages.first else { continue }  // an empty beat shows nothing to wait for
                guard criticalAssetsLoaded(for: StoryLocation(beatId: id, pageId: first.id), in: beat) else { return false }
            }
        }
        return true
    }
}
