import PajamaLoading
import PajamaModel

/// The sounds of the pages: tap, page-enter, choice and cued sounds, and the background sound. Each is
/// played at once when loaded, else loaded and played as a task of the page visit it belongs to, so
/// leaving the page cancels it (the visit is the same one that owns the page's picture tasks).
@MainActor
final class PageSounds {
    private let content: any StoryContent
    private let sound: SoundClient?
    private let hub: EventHub<NavigatorEvent>

    init(content: any StoryContent, sound: SoundClient?, hub: EventHub<NavigatorEvent>) {
        self.content = content
        self.sound = sound
        self.hub = hub
    }

    private func emit(_ event: NavigatorEvent) { hub.publish(event) }

    /// Plays a sound if it is loaded; reports whether it played.
    @discardableResult
    func play(_ path: AssetPath, cue: SoundCue) async -> Bool {
        guard let sound else { return false }
        if let loaded = content.resident.sound(path), sound.play(loaded) {
            emit(.soundPlayed(path, cue))
            return true
        }
        return false
    }

    /// The tap sounds of the page: played at once when loaded (the tap happened on this page, even if it
    /// leaves it), else loaded and played if the reader is still on the visit. Tasks of the visit.
    func playTapSounds(of page: PageState, on visit: PageVisit) {
        for path in page.page.tapSounds { emit(.soundCued(path, .tap)) }
        for path in page.page.tapSounds { playCued(path, cue: .tap, on: visit) }
    }

    /// The page_enter sounds of a page just entered: played when loaded; one not loaded yet (an
    /// `important` one is not waited for) plays when it arrives, if the reader is still on the visit.
    func playPageEnterSounds(of page: Page, on visit: PageVisit) {
        for path in page.pageEnterSounds { playCued(path, cue: .pageEnter, on: visit) }
    }

    /// A sound played on `visit`: at once when loaded, else loaded and played if the reader is still on
    /// the visit (leaving the page cancels it). Nothing when there is no sound.
    func playCued(_ path: AssetPath, cue: SoundCue, on visit: PageVisit) {
        guard sound != nil else { return }
        visit.run { [weak self] in
            guard let self, !(await self.play(path, cue: cue)) else { return }
            await self.loadAndPlay(path, cue: cue, on: visit)
        }
    }

    /// Loads a sound, then plays it, as a task of `visit` (skipped at once if the visit has ended).
    func loadThenPlay(_ path: AssetPath, cue: SoundCue, on visit: PageVisit) {
        guard sound != nil else { return }
        let started = visit.run { [weak self] in await self?.loadAndPlay(path, cue: cue, on: visit) }
        if !started { emit(.soundSkipped(path, cue)) }
    }

    /// Loads a sound, then plays it only if the reader is still on `visit` (a task of the visit: leaving
    /// the page cancels the load). A sound that failed on this visit is skipped without asking again; a
    /// failure is remembered for the visit.
    private func loadAndPlay(_ path: AssetPath, cue: SoundCue, on visit: PageVisit) async {
        guard let sound, !visit.failedSounds.contains(path) else {
            emit(.soundSkipped(path, cue))
            return
        }
        do {
            let loaded = try await content.loadSound(path)
            guard visit.isOpen, !Task.isCancelled, sound.play(loaded) else {
                emit(.soundSkipped(path, cue))
                return
            }
            emit(.soundPlayed(path, cue))
        } catch {
            if visit.isOpen, !Task.isCancelled { visit.failedSounds.insert(path) }
            emit(.soundSkipped(path, cue))
        }
    }

    // MARK: The background sound

    /// What a page just entered says about the background sound (`Page.backgroundSound`, docs/sound.md,
    /// "Background sound"): `play` starts it once it is loaded, if the reader is still on the page (a task of
    /// the visit; the engine keeps a loop that is already the one playing, so it goes on across pages);
    /// `stop` stops it; nothing leaves the one playing. Reading never waits for it.
    func applyBackgroundSound(of page: Page, on visit: PageVisit) {
        guard let sound, let wanted = page.backgroundSound else { return }
        guard case .play(let path) = wanted else {
            sound.stopLoop()
            return
        }
        visit.run { [weak self] in
            guard let self else { return }
            var loaded = content.resident.sound(path)
            if loaded == nil { loaded = try? await content.loadSound(path) }
            guard let loaded, visit.isOpen, !Task.isCancelled else { return }
            _ = sound.startLoop(loaded)
        }
    }

    /// Stops the background sound: the story ended, restarted, or the reader closed.
    func stopBackgroundSound() { sound?.stopLoop() }
}
