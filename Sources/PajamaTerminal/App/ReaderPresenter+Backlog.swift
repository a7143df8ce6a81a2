import PajamaCore

/// The backlog overlay (`b`): the pages read, newest at the bottom, one selected; Enter goes back to it.
public struct BacklogView: Sendable, Equatable {
    var entries: [BacklogEntry]
    /// The selected entry (the newest when it opens).
    var selected: Int

    init(entries: [BacklogEntry]) {
        self.entries = entries
        selected = max(0, entries.count - 1)
    }

    /// The overlay's rows at this text width: each page's text, the choice taken, a blank line between
    /// pages; the selected page's rows marked. Only the rows that fit in `rows` are returned, scrolled so
    /// that the selected page shows (its end, or its start when it is taller than the view).
    func lines(width: Int, rows: Int) -> [(text: String, selected: Bool)] {
        var all: [(text: String, selected: Bool)] = []
        var start = 0, end = 0
        for (index, entry) in entries.enumerated() {
            if index > 0 { all.append(("", false)) }
            if index == selected { start = all.count }
            let isSelected = index == selected
            for line in entry.lines {
                for wrapped in TextWrapper.wrap(DisplayWidth.sanitize(line), width: max(1, width)) { all.append((wrapped, isSelected)) }
            }
            if let choice = entry.choice {
                for wrapped in TextWrapper.wrap("→ " + DisplayWidth.sanitize(choice), width: max(1, width)) { all.append((wrapped, isSelected)) }
            }
            if index == selected { end = all.count }
        }
        let offset = max(0, min(start, end - rows))
        return Array(all.dropFirst(offset).prefix(max(0, rows)))
    }
}

extension ReaderPresenter {
    /// A key while the backlog is open: ↑ ↓ (`k` `j`) and PgUp PgDn move the selection, Enter goes back to
    /// the selected page (a back move; on the current page it only closes), Esc, `b` and `q` close.
    mutating func handleBacklog(_ key: Key, _ view: BacklogView) -> [ReaderEffect] {
        var view = view
        let last = view.entries.count - 1
        switch key {
        case .up, .character("k"): view.selected = max(0, view.selected - 1)
        case .down, .character("j"): view.selected = min(last, view.selected + 1)
        case .pageUp: view.selected = max(0, view.selected - Self.backlogPageStep)
        case .pageDown: view.selected = min(last, view.selected + Self.backlogPageStep)
        case .enter:
            mode = .reading
            guard view.entries.indices.contains(view.selected), view.selected < last, mayNavigate() else { return [] }
            return [.goBack(toHistoryIndex: view.entries[view.selected].historyIndex)]
        case .escape, .character("b"), .character("q"):
            mode = .reading
            return []
        default:
            return []
        }
        mode = .backlog(view)
        return []
    }

    /// Pages PgUp / PgDn move the backlog's selection by.
    static let backlogPageStep = 5

    /// The backlog arrived (after `openBacklog`): it opens, unless another overlay took the screen meanwhile.
    mutating func openBacklog(_ entries: [BacklogEntry]) {
        guard mode == .reading else { return }
        guard !entries.isEmpty else {
            notice = "nothing read yet"
            return
        }
        mode = .backlog(BacklogView(entries: entries))
    }
}
