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
