import PajamaStoryFormat

/// The story's status page over the page (`i`: a ChoiceScript game's stats screen), scrolled as the help is.
public struct StatusOverlay: Sendable, Equatable {
    /// Its heading and lines (bars drawn in block characters).
    public var title: String
    public var lines: [String]
    /// How far it is scrolled (rows), where it does not fit.
    public var scroll: Int

    /// The width of a meter's bar, in cells.
    static let barWidth = 24

    init(_ page: StatusPage) {
        title = page.title
        lines = page.lines(barWidth: Self.barWidth)
        scroll = 0
    }
}

extension ReaderPresenter {
    /// `i`: the story's status page at the page shown (asked of the story; it opens when it comes), or why not.
    mutating func openStatus() -> [ReaderEffect] {
        guard statusPageTitle != nil else {
            notice = "this story has no status page"
            return []
        }
        guard let beatId = pageState?.location.beatId else { return [] }
        return [.openStatus(beatId: beatId)]
    }

    /// The status page asked for came: shown over the page, unless the reader moved on meanwhile or another
    /// overlay has the screen.
    mutating func statusArrived(_ page: StatusPage?, beatId: String) {
        guard mode == .reading, pageState?.location.beatId == beatId else { return }
        guard let page else {
            notice = "no status page here"
            return
        }
        mode = .status(StatusOverlay(page))
    }

    /// A key while the status page is shown: ↑ ↓ PgUp PgDn (k j) scroll it, any other key closes it.
    mutating func statusKey(_ key: Key, _ overlay: StatusOverlay) {
        guard let step = scrollStep(for: key) else {
            mode = .reading
            return
        }
        var scrolled = overlay
        scrolled.scroll = max(0, min(overlay.lines.count, overlay.scroll + step))
        mode = .status(scrolled)
    }
}

extension ReaderPresenter {
    /// How far a key scrolls an overlay (the help, the status page): ↑ ↓ (k j) a line, PgUp PgDn half a
    /// screen; nil for any other key, which closes it.
    func scrollStep(for key: Key) -> Int? {
        switch key {
        case .up, .character("k"): -1
        case .down, .character("j"): 1
        case .pageUp: -(height / 2)
        case .pageDown: height / 2
        default: nil
        }
    }
}
