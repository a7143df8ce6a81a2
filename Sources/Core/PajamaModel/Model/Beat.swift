/// One `beats/<id>.json` file: a run of pages and where reading goes after them.
public struct Beat: Hashable, Sendable {
    public var id: String
    public var pages: [Page]
    /// The beat that follows the last page, unless that page is a choice.
    public var nextBeatId: String?
    /// How a beat made as it is read (ink) was reached; nil for the beats of a story package.
    public var origin: BeatOrigin?

    public init(id: String, pages: [Page], nextBeatId: String? = nil, origin: BeatOrigin? = nil) {
        self.id = id
        self.pages = pages
        self.nextBeatId = nextBeatId
        self.origin = origin
    }

    /// The page with this id, if the beat has one.
    public func page(withId pageId: String) -> Page? { pages.first { $0.id == pageId } }

    /// The position of the page with this id.
    public func pageIndex(of pageId: String) -> Int? { pages.firstIndex { $0.id == pageId } }

    /// True when reading stops after this beat: no next beat and no choice at the end.
    public var isEnding: Bool {
        guard nextBeatId == nil else { return false }
        switch pages.last?.kind {
        case .choice, .question: return false
        default: return true
        }
    }

    /// Every beat id reading can go to from here: the next beat and every choice target.
    public var successorBeatIds: [String] {
        var ids: [String] = []
        if let next = nextBeatId { ids.append(next) }
        for page in pages {
            if case .choice(_, let choices) = page.kind {
                for choice in choices where !ids.contains(choice.targetBeatId) { ids.append(choice.targetBeatId) }
            }
        }
        return ids
    }

    /// Every asset this beat refers to, with the page that refers to it and its role.
    public var assetReferences: [AssetReference] {
        pages.flatMap { $0.assetReferences(beatId: id) }
    }
}
