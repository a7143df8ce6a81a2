import PajamaModel

/// What a story's content has in memory, read at once on the caller's thread, with no hop to the content's
/// actor (a job on the cooperative pool: a wake of another thread there and back, for every question). The one
/// synchronous question the reader asks of the loading engine; everything else is an async load.
///
/// The reader answers a move to a page whose beat and critical assets are in memory from it, a page's
/// picture and a cued sound too, and the status line's "▸ ready" in the same turn, so a key on cached content
/// gets its page in one frame, drawn without waiting for another thread. The live content's gate
/// (`loadCriticalAssets`) asks the same question, and test fakes answer it as the live content does.
public protocol ResidentContent: Sendable {
    /// The beat if it is in memory; never waits.
    func beat(_ id: String) -> Beat?
    /// True when every critical asset of the page at `location` is loaded (entry need not wait); never waits.
    func criticalAssetsLoaded(for location: StoryLocation, in beat: Beat) -> Bool
    /// The picture if it is in memory (decoded); never waits. The reader gives a page its picture in the
    /// same turn as the page when it is there.
    func image(_ path: AssetPath) -> StoryImage?
    /// The sound if it is loaded (decoded, and confirmed by the sound engine); never waits.
    func sound(_ path: AssetPath) -> LoadedSound?
}
