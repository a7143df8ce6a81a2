extension ReaderViewModel {
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
            var loaded = await content.cachedSound(path)
            if loaded == nil { loaded = try? await content.loadSound(path) }
            guard let loaded, visit.isOpen, !Task.isCancelled else { return }
            _ = sound.startLoop(loaded)
        }
    }

    /// Stops the background sound: the story ended, restarted, or the reader closed.
    func stopBackgroundSound() { sound?.stopLoop() }
}
