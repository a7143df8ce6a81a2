/// An overlay list the reader picks from (the backlog, the bookmarks): items of a few lines each, one
/// selected, under a heading that names its keys.
public struct PickList: Sendable, Equatable {
    public var heading: String
    /// Each item's lines (story text included: sanitized when drawn).
    var items: [[String]]
    var selected: Int

    /// Opens with the item at `selected` chosen (the newest for the backlog).
    init(heading: String, items: [[String]], selected: Int) {
        self.heading = heading
        self.items = items
        self.selected = max(0, min(selected, items.count - 1))
    }

    /// Pages PgUp / PgDn move the selection by.
    static let pageStep = 5

    /// Moves the selection for ↑ ↓ (`k` `j`) PgUp PgDn; false for any other key.
    mutating func move(_ key: Key) -> Bool {
        let last = items.count - 1
        switch key {
        case .up, .character("k"): selected = max(0, selected - 1)
        case .down, .character("j"): selected = min(last, selected + 1)
        case .pageUp: selected = max(0, selected - Self.pageStep)
        case .pageDown: selected = min(last, selected + Self.pageStep)
        default: return false
        }
        return true
    }

    /// The overlay's rows at this text width: each item's lines, a blank line between items; the selected
    /// item's rows marked. Only the rows that fit in `rows` are returned, scrolled so that the selected
    /// item shows (its end, or its start when it is taller than the view).
    func lines(width: Int, rows: Int) -> [(text: String, selected: Bool)] {
        var all: [(text: String, selected: Bool)] = []
        var start = 0, end = 0
        for (index, item) in items.enumerated() {
            if index > 0 { all.append(("", false)) }
            if index == selected { start = all.count }
            for line in item {
                for wrapped in TextWrapper.wrap(DisplayWidth.sanitize(line), width: max(1, width)) { all.append((wrapped, index == selected)) }
            }
            if index == selected { end = all.count }
        }
        let offset = max(0, min(start, end - rows))
        return Array(all.dropFirst(offset).prefix(max(0, rows)))
    }
}
