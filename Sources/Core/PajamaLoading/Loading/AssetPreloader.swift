import PajamaModel

/// The seeds' AssetPreloader: what `BeatPreloader` needs to preload the pictures and sounds of the
/// beats it wants, into the story's two `AssetStore`s: their order (`AssetPreloadOrder`: critical before
/// important before optional, nearest beats first; sounds only when there is a sound store) and the
/// load of one of them.
struct AssetPreloader: Sendable {
    let images: AssetStore<StoryImage>
    let sounds: AssetStore<LoadedSound>?
    /// The criticality of one use of an asset (run-time override, else story.json, else the default).
    let criticality: @Sendable (AssetReference) -> Criticality

    /// The assets of `beats` (nearest first) in the order they are fetched; no sounds when sound is off.
    func order(_ beats: [Beat]) -> [AssetReference] {
        AssetPreloadOrder.references(of: beats, criticality: criticality).filter { !$0.role.isSound || sounds != nil }
    }

    /// Loads one asset into its store (a failure is kept there, for the reader's load to report again),
    /// handing `progress` its bytes as they arrive. Stops as soon as its task is cancelled, unless the
    /// reader waits for the same asset.
    func load(_ reference: AssetReference, progress: @escaping @Sendable (TransferProgress) -> Void) async {
        if reference.role.isSound {
            await sounds?.preload(reference.path, progress: progress)
        } else {
            await images.preload(reference.path, progress: progress)
        }
    }
}
