import PajamaModel

extension ReaderPresenter {
    /// The story's files changed (`--watch`): the title follows story.json, and the page's picture, when its
    /// file changed, is loaded and rendered again (the frame has none until its new cells arrive).
    mutating func storyChanged(title: String, assets: Set<AssetPath>?) -> [ReaderEffect] {
        storyTitle = title
        needsRedraw = true
        guard let page = pageState?.page, let path = page.imageUrl, assets?.contains(path) ?? true else { return [] }
        failedPictures.remove(path)
        (picture, shownPicture, requestedPicture, pictureLoading) = (nil, nil, nil, nil)
        return loadPicture(of: page)
    }

    /// What validation found after a change: the overlay opens over the page (unless another overlay has the
    /// screen), or closes by itself when the story is clean again; the status line marks them meanwhile.
    mutating func showProblems(_ lines: [String]) {
        problems = lines
        if lines.isEmpty {
            if case .problems = mode { mode = .reading }
            return
        }
        let count = lines.count == 1 ? "1 problem" : "\(lines.count) problems"
        let list = PickList(heading: "\(count) in the story · ↑ ↓ scroll · Esc hide (until the next change)", items: lines.map { [$0] }, selected: 0)
        switch mode {
        case .reading, .problems: mode = .problems(list)
        default: break
        }
    }
}
