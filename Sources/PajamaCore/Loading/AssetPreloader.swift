/// The seeds' AssetPreloader: once `BeatPreloader` has loaded a window of beats, it loads their pictures
/// and sounds in the background, critical before important before optional, nearest beats first
/// (`AssetPreloadOrder`), into the story's two `AssetStore`s. Sounds are skipped when there is no sound
/// store (sound off). It stops as soon as its task is cancelled (the reader moved to another window).
struct AssetPreloader: Sendable {
    let images: AssetStore<StoryImage>
    let sounds: AssetStore<LoadedSound>?
    /// The criticality of one use of an asset (run-time override, else story.json, else the default).
    let criticality: @Sendable (AssetReference) -> Criticality

    /// Loads the assets of `beats` (nearest first), one at a time; failures are kept in the stores.
    func preload(_ beats: [Beat]) async {
        for ref in AssetPreloadOrder.references(of: beats, criticality: criticality) {
            if Task.isCancelled { return }
            if ref.role.isSound { await sounds?.preload([ref.path]) } else { await images.preload([ref.path]) }
        }
    }
}
