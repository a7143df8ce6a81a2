import PajamaLoading
import PajamaModel

/// Where a tap or a choice can go from a page: the next page of its beat, or the start of another beat.
public enum NextPlace: Sendable, Equatable {
    case page(StoryLocation)
    case beatStart(String)
}

extension PageState {
    /// Every place reading can go to from this page (back aside): the next page of the beat, the next
    /// beat after the last page, or each choice's beat on a choice page; none at an ending.
    public var nextPlaces: [NextPlace] {
        if case .choice(_, let choices) = page.kind {
            var ids: [String] = []
            for choice in choices where !ids.contains(choice.targetBeatId) { ids.append(choice.targetBeatId) }
            return ids.map { .beatStart($0) }
        }
        if pageIndex + 1 < beat.pages.count {
            return [.page(StoryLocation(beatId: beat.id, pageId: beat.pages[pageIndex + 1].id))]
        }
        return beat.nextBeatId.map { [.beatStart($0)] } ?? []
    }
}

extension ResidentContent {
    /// True when every page reading can go to from `page` can be entered at once: its beat is in memory and its
    /// critical assets are loaded (the same gate a move waits on). True at an ending (nothing follows).
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
