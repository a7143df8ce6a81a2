import PajamaReading
import PajamaStorage
import PajamaImage

extension ReaderPresenter {
    /// The frame to draw now, and the picture render it needs (when the picture's box changed: a new page,
    /// a resize, the stats panel). Until those cells arrive the frame keeps the previous cells (clipped) or
    /// none: it never waits.
    public mutating func render() -> (frame: RenderedFrame, effects: [ReaderEffect]) {
        var grid = CellGrid(width: 0, height: 0)
        let effects = render(into: &grid)
        return (RenderedFrame(grid: grid, choices: choiceBoxes), effects)
    }

    /// The picture render the next frame needs (when the picture's box changed), asked for before the frame
    /// is composed: cells the picture cache already holds then come back in time for that frame.
    public mutating func frameEffects() -> [ReaderEffect] { pictureRequest(for: model()) }

    /// `render()`, composing the frame into `grid` (its storage reused: see `CellGrid.clear`).
    public mutating func render(into grid: inout CellGrid) -> [ReaderEffect] {
        needsRedraw = false
        let model = model()
        let effects = pictureRequest(for: model)
        choiceBoxes = PageRenderer.draw(model, into: &grid, width: width, height: height)
        return effects
    }

    private mutating func pictureRequest(for model: ScreenModel) -> [ReaderEffect] {
        let view: PageView
        switch model.content {
        case .page(let v), .finished(let v, _): view = v
        default: return []
        }
        guard let picture, view.page.imageUrl == picture.path,
              let box = PageRenderer.pictureBox(for: model, width: width, height: height)
        else { return [] }
        let key = PictureCache.Key(path: picture.path, width: box.width, height: box.height, look: look)
        guard shownPicture?.key != key || shownPicture?.isDraft == true, requestedPicture != key else { return [] }
        requestedPicture = key
        return [.requestPicture(key, picture.image)]
    }

    /// What the frame shows for the current state.
    func model() -> ScreenModel {
        var content: ScreenModel.Content = .blank
        var position = ""
        switch reader {
        case .starting:
            content = .blank
        case .loading(let location, _):
            if let text = loadingText {
                content = .loading(text)
            } else if let page = lastPage {
                content = .page(view(page))
            }
            position = showsPosition ? location.beatId : ""
        case .page(let page):
            content = .page(view(page))
            position = statusText(page)
        case .failed(let failure):
            content = .error(message: failure.error.readerMessage, canSkip: failure.canSkip, canGoBack: failure.canGoBack)
            position = showsPosition ? failure.location.beatId : ""
        case .finished(let page, let summary):
            content = .finished(view(page), summary)
            position = showsPosition ? positionText(page) + " · the end" : "the end"
        }
        var status = sound.text
        if !problems.isEmpty { status = "⚠ \(problems.count) problem\(problems.count == 1 ? "" : "s")  " + status }
        var helpHeader: [String] = []
        switch role {
        case .host(let join, let followers):
            status = "hosting · \(followers) following  " + status
            helpHeader = ["Others join with:", join]
        case .follower(let owner):
            // Said from the first frame, not only once a navigation key is pressed.
            status = "following \(owner)  " + status
        case .solo: break
        }
        var model = ScreenModel(
            storyTitle: storyTitle, content: content, position: position, soundStatus: status, notice: notice,
            showHelp: helpScroll != nil, helpScroll: helpScroll ?? 0, confirmRestart: mode == .confirmRestart, statsLines: statsLines, helpHeader: helpHeader,
            pickList: pickList, bookmarkName: bookmarkName, statusOverlay: statusOverlay, statusKey: statusPageTitle)
        if case .host = role { model.votesKey = votes != nil }
        return model
    }

    private var statusOverlay: StatusOverlay? {
        if case .status(let overlay) = mode { return overlay }
        return nil
    }

    private var helpScroll: Int? {
        if case .help(let scroll) = mode { return scroll }
        return nil
    }

    private var bookmarkName: NameField? {
        if case .nameBookmark(let field) = mode { return field }
        return nil
    }

    private var pickList: PickList? {
        switch mode {
        case .backlog(let list, _), .bookmarks(let list, _), .problems(let list): list
        default: nil
        }
    }

    private func view(_ page: PageState) -> PageView {
        let path = page.page.imageUrl
        let cells = path != nil && shownPicture?.key.path == path ? shownPicture?.cells : nil
        let missing = cells == nil && path.map { failedPictures.contains($0) } == true
        var view = PageView(page: page.page, revealedLines: page.revealedLines, selectedChoice: selectedChoice,
                            picture: cells, pictureMissing: missing, scroll: scroll)
        if page.page.question != nil, answerField.location == page.location { view.answerLine = answerField.field.shown.text }
        view.votes = votesHere
        return view
    }

    private func positionText(_ page: PageState) -> String {
        "\(page.beat.id) · page \(page.pageIndex + 1)/\(page.beat.pages.count)"
    }

    /// The status line's left part on a page: the beat and page with `--stats`, then how far along the
    /// reading is ("5 pages read · 3 of 9 beats seen"), "seen before" on a page seen before, and "▸ ready"
    /// once the loading engine has every page reading can go to next (with its critical assets) loaded.
    private func statusText(_ page: PageState) -> String {
        let standing = page.standing
        var parts: [String] = showsPosition ? [positionText(page)] : []
        parts.append(standing.pagesRead == 1 ? "1 page read" : "\(standing.pagesRead) pages read")
        if let listed = standing.beatsListed { parts.append("\(standing.beatsSeen) of \(listed) beats seen") }
        if standing.seenBefore { parts.append("seen before") }
        if nextReady == SeenPage(page.location) { parts.append("▸ ready") }
        if autoForward != .off { parts.append("auto") }
        if let votes = votesHere, case .host = role { parts.append(Self.voted(votes)) }
        if let title = statusPageTitle { parts.append("i \(title.lowercased())") }
        return parts.joined(separator: " · ")
    }
}
