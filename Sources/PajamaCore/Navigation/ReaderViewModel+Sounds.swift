extension ReaderViewModel {
    /// Plays a sound if it is loaded; reports whether it played.
    @discardableResult
    func play(_ path: AssetPath, cue: SoundCue) async -> Bool {
        guard let sound else { return false }
        if let loaded = await content.cachedSound(path), sound.play(loaded) {
            emit(.soundPlayed(path, cue))
            return true
        }
        return false
    }

    /// The tap sounds of the page: played at once when loaded (the tap happened on this page, even if it
    /// leaves it), else loaded and played if the reader is still on the visit. Tasks of the visit.
    func playTapSounds(of page: PageState, on visit: PageVisit) {
        for path in page.page.tapSounds { emit(.soundCued(path, .tap)) }
        guard sound != nil else { return }
        for path in page.page.tapSounds {
            visit.run { [weak self] in
                guard let self, !(await self.play(path, cue: .tap)) else { return }
                await self.loadAndPlay(path, cue: .tap, on: visit)
            }
        }
    }

    /// The page_enter sounds of a page just entered: played when loaded; one not loaded yet (an
    /// `important` one is not waited for) plays when it arrives, if the reader is still on the visit.
    func playPageEnterSounds(of page: Page, on visit: PageVisit) {
        guard sound != nil else { return }
        for path in page.pageEnterSounds {
            visit.run { [weak self] in
                guard let self, !(await self.play(path, cue: .pageEnter)) else { return }
                await self.loadAndPlay(path, cue: .pageEnter, on: visit)
            }
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
}

extension ReaderViewModel {
    /// A sound someone else cued (co-reading: the owner's tap or choice sound), played on this reader's page
    /// visit: at once when loaded, else loaded and played if the reader is still on the visit (leaving the
    /// page cancels it, as it does the reader's own sounds). Nothing when there is no sound or no page yet.
    public func playCued(_ path: AssetPath, cue: SoundCue) {
        guard sound != nil, let visit = currentVisit else { return }
        visit.run { [weak self] in
            guard let self, !(await self.play(path, cue: cue)) else { return }
            await self.loadAndPlay(path, cue: cue, on: visit)
        }
    }
}
