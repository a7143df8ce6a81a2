import PajamaModel

/// Following the owner of a co-read story made as it is read (ink, docs/ink.md "Co-reading"): the follower's
/// own runtime makes the owner's beat from the same seed and choices, and the state it started the beat from
/// is checked against the owner's; when they differ, the beat is made again from the owner's state.
extension ReaderViewModel {
    /// What following a move found.
    public enum FollowOutcome: Sendable, Equatable {
        /// The follower's beat started from the owner's state (or there was nothing to check).
        case inStep
        /// The states differed; the beat was made again from the owner's state.
        case resynced
        /// The states differed and the owner's state was too large to send: the pages may differ.
        case outOfStep
    }

    /// Goes to the owner's `location`; `sync` is the owner's beat (nil for a story package, or when the
    /// location is not in it: a plain move).
    @discardableResult
    public func follow(_ location: StoryLocation, sync: BeatSync?) async -> FollowOutcome {
        // The owner revealed a line (or went back up the page): the same page, not a new one. Counted and
        // sounded as on the owner's screen: no page read added, no page_enter sounds again.
        if let (shown, _) = navigation.page, shown.location.beatId == location.beatId, shown.location.pageId == location.pageId,
            shown.beat.id == location.beatId, case .text(let lines) = shown.page.kind, location.lineIndex < lines.count
        {
            var page = shown
            page.location = location
            page.revealedLines = location.lineIndex + 1
            record.updateCurrent(location)
            navigation.update(page)
            save(location)
            return .inStep
        }
        guard let sync, sync.beatId == location.beatId else {
            await navigateToLocation(location)
            return .inStep
        }
        var way = sync.origin
        way.state = nil
        if case .failed(let reason) = await content.restore(way) { emit(.notice(reason)) }
        await navigateToLocation(location)
        guard let expected = sync.stateHash, let beat = shownBeat, beat.id == sync.beatId, beat.origin?.stateHash != expected else {
            return .inStep
        }
        guard sync.origin.state != nil else { return .outOfStep }
        _ = await content.restore(sync.origin)
        await enter(Entry(target: .location(location), beatHint: nil, recordInHistory: false, choiceSound: nil))
        return .resynced
    }

    /// The beat of the page shown.
    private var shownBeat: Beat? {
        navigation.shownPage?.beat
    }
}
