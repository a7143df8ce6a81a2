import PajamaReading

/// Composes a frame: header, page (with its picture), status line, overlays. Pure, so layouts are
/// unit-tested as text at any size.
public enum PageRenderer {
    /// Smallest size drawn normally; below it the frame says the terminal is too small.
    public static let minimumSize = (width: 20, height: 6)
    /// From this width on, pictures go beside the text instead of above it.
    public static let sideBySideWidth = 100

    public static let helpLines = [
        "Space Enter → l   next line / page",
        "← h Backspace     back",
        "1-9 0             take that choice (1 2: 12)",
        "↑ ↓ then Enter    move and take",
        "a question page   type, Enter answers; Esc: next key a command",
        "↑ ↓ PgUp PgDn     scroll a long page",
        "r                 restart (asks first)",
        "b                 backlog: pages read",
        "s  o              bookmark: save, open one",
        ">  a  [ ]  w      skip seen · auto-forward, pace · timed text",
        "m  + -            mute, volume",
        "v                 read aloud on / off (on: says the page)",
        "V                 say the current line again",
        "t  c              next theme · captions on / off",
        "?                 this help",
        "q Esc             quit",
    ]

    /// The help's lines, with `i` for a story whose status page is called `statusKey`, and `g` for the owner
    /// of a session that takes votes.
    static func helpLines(statusKey: String?, votesKey: Bool = false) -> [String] {
        var lines = helpLines
        if let statusKey {
            lines.insert("i                 \(DisplayWidth.sanitize(statusKey).lowercased()): the story's own page", at: max(0, lines.count - 2))
        }
        if votesKey { lines.insert("g                 take the choice with the most votes", at: max(0, lines.count - 2)) }
        return lines
    }

    /// The right of the status line: the notice, if any, then the sound's status. A notice too wide for the
    /// line is cut with "…" (its start says what happened), never dropped; the position on the left gets
    /// what is left.
    static func statusRight(_ model: ScreenModel, width: Int) -> String {
        let sound = model.soundStatus
        guard let notice = model.notice else { return sound }
        // The line holds " " + right + " " with a column to spare (see `frame`), "  " between the two parts.
        let room = width - 3 - DisplayWidth.of(DisplayWidth.sanitize(sound)) - 2
        let clean = DisplayWidth.sanitize(notice)
        guard room >= 2 else { return sound }
        let shown = DisplayWidth.of(clean) <= room ? clean : TextWrapper.clip(clean, width: room - 1) + "…"
        return shown + "  " + sound
    }

    /// The status line's left items (" · " between them, the most important first) that fit in `width`:
    /// the least important are dropped whole, never cut mid-word ("1 of 11 be").
    static func fitted(_ position: String, width: Int) -> String {
        var items = position.components(separatedBy: " · ")
        while !items.isEmpty, DisplayWidth.of(DisplayWidth.sanitize(items.joined(separator: " · "))) > width { items.removeLast() }
        return items.joined(separator: " · ")
    }

    /// The frame's cells only (see `frame(_:width:height:)` for its hit boxes too).
    public static func render(_ model: ScreenModel, width: Int, height: Int) -> CellGrid {
        frame(model, width: width, height: height).grid
    }

    /// The frame for `model` at this size, and where its choices are, so a mouse click is a lookup.
    public static func frame(_ model: ScreenModel, width: Int, height: Int) -> RenderedFrame {
        var grid = CellGrid(width: 0, height: 0)
        let choices = draw(model, into: &grid, width: width, height: height)
        return RenderedFrame(grid: grid, choices: choices)
    }

    /// Composes the frame for `model` into `grid` (cleared to this size first, in its own storage: see
    /// `CellGrid.clear`) and returns where its choices are.
    public static func draw(_ model: ScreenModel, into grid: inout CellGrid, width: Int, height: Int) -> [ChoiceHitBox] {
        grid.clear(width: width, height: height)
        var choices: [ChoiceHitBox] = []
        guard width >= minimumSize.width, height >= minimumSize.height else {
            let message = TextWrapper.wrap("terminal too small", width: max(1, width))
            for (i, line) in message.prefix(max(0, height)).enumerated() { grid.put(line, x: 0, y: i, style: Style(.error)) }
            return []
        }
        let statsPanel = statsPanelWidth(model, width: width)
        if let stats = model.statsLines, statsPanel > 0 {
            for (i, line) in stats.prefix(height - 2).enumerated() {
                grid.put(line, x: width - statsPanel + 1, y: 1 + i, style: Style(.dim), maxWidth: statsPanel - 1)
            }
        }
        // Header and status line.
        grid.fill(y: 0, style: Style(.status))
        grid.put(" " + model.storyTitle, x: 0, y: 0, style: Style(.status), maxWidth: width)
        grid.fill(y: height - 1, style: Style(.status))
        let right = statusRight(model, width: width)
        let rightWidth = DisplayWidth.of(DisplayWidth.sanitize(right))
        grid.put(" " + fitted(model.position, width: max(0, width - rightWidth - 3)), x: 0, y: height - 1, style: Style(.status),
                 maxWidth: max(0, width - rightWidth - 2))
        if rightWidth + 2 < width { grid.put(right + " ", x: width - rightWidth - 1, y: height - 1, style: Style(.status)) }

        let body = bodyArea(model, width: width, height: height)
        switch model.content {
        case .blank:
            break
        case .loading(let text):
            center(&grid, [text], in: body, style: Style(.dim))
        case .error(let message, let canSkip, let canGoBack):
            var lines = ["Could not load this page."] + TextWrapper.wrap(DisplayWidth.sanitize(message), width: body.width)
            lines.append("")
            lines.append((["r retry"] + (canSkip ? ["s skip"] : []) + (canGoBack ? ["← back"] : []) + ["q quit"]).joined(separator: " · "))
            center(&grid, lines, in: body, style: Style(.error))
        case .page(let view):
            choices = drawPage(&grid, view, in: pageArea(model, body: body))
        case .finished(let view, let summary):
            choices = drawPage(&grid, view, in: pageArea(model, body: body))
            let lines = endLines(summary, width: body.width)
            for (i, line) in lines.enumerated() {
                let y = body.y + body.height - lines.count + i, clipped = TextWrapper.clip(line, width: body.width)
                guard y >= body.y else { continue }
                let x = body.x + max(0, (body.width - DisplayWidth.of(clipped)) / 2)
                grid.put(clipped, x: x, y: y, style: Style(i == 0 ? .title : .dim))
                if i == 0 { grid.cursor = CellPosition(x: x, y: y) }  // on "The End"
            }
        }
        // Under an overlay nothing can be clicked, and no picture is drawn in pixels (they would cover it).
        if model.pickList != nil || model.bookmarkName != nil || model.confirmRestart || model.showHelp || model.statusOverlay != nil { grid.pixels = nil }
        if let list = model.pickList {
            drawList(&grid, list, width: width, height: height)
            choices = []
        } else if let field = model.bookmarkName {
            let shown = field.shown
            let footer = shown.isHint ? "Enter save as shown · type another name · Esc cancel" : "Enter save · Ctrl-U clear · Esc cancel"
            overlay(&grid, ["Save a bookmark named:", "", DisplayWidth.sanitize(shown.text), "", footer], width: width, height: height)
            choices = []
        } else if model.confirmRestart {
            overlay(&grid, ["Restart from the beginning?", "", "y yes · n no"], width: width, height: height)
            choices = []
        } else if model.showHelp {
            // The header (the join command while hosting) comes first: it is what a host opens the help for,
            // and under the keys it was off a 24-line screen.
            let first = model.helpHeader.isEmpty ? [] : model.helpHeader + [""]
            overlay(&grid, first + ["Keys", ""] + helpLines(statusKey: model.statusKey, votesKey: model.votesKey) + ["", "any key to close (↑ ↓ scroll)"],
                    width: width, height: height, scroll: model.helpScroll)
            choices = []
        } else if let status = model.statusOverlay {
            let lines = status.lines.map { DisplayWidth.sanitize($0) }
            overlay(&grid, [DisplayWidth.sanitize(status.title), ""] + lines + ["", "any key to close (↑ ↓ scroll)"],
                    width: width, height: height, scroll: status.scroll)
            choices = []
        }
        return choices
    }

    // MARK: Areas

    typealias Rect = PageLayout.Rect

    /// The box (columns, rows) the picture of the model's page is drawn in at this terminal size, or nil
    /// when the frame shows no page or has no room for a picture. The reader renders pictures at this
    /// size ahead of time (`PictureCache`), so composing a frame only copies cells.
    public static func pictureBox(for model: ScreenModel, width: Int, height: Int) -> (width: Int, height: Int)? {
        guard width >= minimumSize.width, height >= minimumSize.height else { return nil }
        switch model.content {
        case .page, .finished:
            return PageLayout.pictureBox(in: pageArea(model, body: bodyArea(model, width: width, height: height)))
        case .blank, .loading, .error:
            return nil
        }
    }

    /// How many lines the page's text can be scrolled at this size (0 when it fits, or no page shows).
    public static func maximumScroll(for model: ScreenModel, width: Int, height: Int) -> Int {
        guard width >= minimumSize.width, height >= minimumSize.height else { return 0 }
        switch model.content {
        case .page(let view), .finished(let view, _):
            return geometry(of: view, in: pageArea(model, body: bodyArea(model, width: width, height: height))).maximumScroll
        case .blank, .loading, .error:
            return 0
        }
    }

    /// The scroll that shows choice `index` (all its rows), moving from `scroll` as little as it takes: the
    /// selected choice is never below the fold, where Enter would take a choice the reader cannot see.
    public static func scroll(showingChoice index: Int, for model: ScreenModel, width: Int, height: Int, from scroll: Int) -> Int {
        guard width >= minimumSize.width, height >= minimumSize.height else { return scroll }
        switch model.content {
        case .page(let view), .finished(let view, _):
            let geometry = geometry(of: view, in: pageArea(model, body: bodyArea(model, width: width, height: height)))
            let rows = geometry.text.shown.indices.filter { geometry.text.shown[$0].choice == index }
            guard let first = rows.first, let last = rows.last else { return scroll }
            var start = min(max(0, scroll), geometry.maximumScroll)
            if last >= start + geometry.textArea.height { start = last - geometry.textArea.height + 1 }
            if first < start { start = first }
            return min(max(0, start), geometry.maximumScroll)
        case .blank, .loading, .error:
            return scroll
        }
    }

    /// How many lines PgUp / PgDn move the page's text at this size: the rows its text area shows, less
    /// one line kept from the previous view, so no line is ever skipped (at least 1).
    public static func pageStep(for model: ScreenModel, width: Int, height: Int) -> Int {
        guard width >= minimumSize.width, height >= minimumSize.height else { return 1 }
        switch model.content {
        case .page(let view), .finished(let view, _):
            let rows = geometry(of: view, in: pageArea(model, body: bodyArea(model, width: width, height: height))).textArea.height
            return max(1, rows - 1)
        case .blank, .loading, .error:
            return 1
        }
    }

    private static func statsPanelWidth(_ model: ScreenModel, width: Int) -> Int {
        model.statsLines != nil && width >= 60 ? min(32, width / 3) : 0
    }

    /// Between the title bar and the status line, less the stats panel, with a margin all round.
    private static func bodyArea(_ model: ScreenModel, width: Int, height: Int) -> Rect {
        Rect(x: 2, y: 2, width: max(1, width - statsPanelWidth(model, width: width) - 4), height: max(1, height - 4))
    }

    /// Where the page goes: the body, less the end screen's rows under the ending's page.
    private static func pageArea(_ model: ScreenModel, body: Rect) -> Rect {
        if case .finished(_, let summary) = model.content {
            let rows = endLines(summary, width: body.width).count + 1
            return Rect(x: body.x, y: body.y, width: body.width, height: max(1, body.height - rows))
        }
        return body
    }

    /// The end screen's parts under the ending's page: "The End", how the reading went, the keys.
    static func endParts(_ summary: EndSummary) -> [[String]] {
        func count(_ n: Int, _ one: String, _ many: String) -> String { "\(n) \(n == 1 ? one : many)" }
        let endings = summary.endingsTotal.map { "\(summary.endingsFound) of \($0) endings found" }
            ?? count(summary.endingsFound, "ending found", "endings found")
        return [
            ["The End"],
            [count(summary.pagesRead, "page read", "pages read"), count(summary.choicesMade, "choice made", "choices made"), endings],
            ["r restart", "b backlog", "← back", "q quit"],
        ]
    }

    /// The end screen's lines at `width` (nil: each part on one line): a part too wide goes on over more
    /// lines, broken between its items (" · "), never cut ("… 1 end", "… q q" at 40 columns).
    static func endLines(_ summary: EndSummary, width: Int? = nil) -> [String] {
        endParts(summary).flatMap { items in width.map { wrapItems(items, width: $0) } ?? [items.joined(separator: " · ")] }
    }

    /// `items` joined by " · " into lines of at most `width` cells, broken between items (an item wider than
    /// the line alone is left to be clipped).
    static func wrapItems(_ items: [String], width: Int) -> [String] {
        var lines: [String] = []
        for item in items {
            if let last = lines.last, DisplayWidth.of(last) + 3 + DisplayWidth.of(item) <= width {
                lines[lines.count - 1] = last + " · " + item
            } else {
                lines.append(item)
            }
        }
        return lines
    }

    /// `lines` centred in `area`; the cursor at the start of the first.
    private static func center(_ grid: inout CellGrid, _ lines: [String], in area: Rect, style: Style) {
        let top = area.y + max(0, (area.height - lines.count) / 2)
        for (i, line) in lines.enumerated() where top + i < area.y + area.height {
            let clipped = TextWrapper.clip(line, width: area.width)
            let x = area.x + max(0, (area.width - DisplayWidth.of(clipped)) / 2)
            grid.put(clipped, x: x, y: top + i, style: style)
            if i == 0 { grid.cursor = CellPosition(x: x, y: top) }
        }
    }

    /// A box over the page with `lines`, each wrapped to the box (never cut at its edge); where they do not
    /// fit, `scroll` rows down, with ▲ ▼ in the box's margin saying there is more.
    private static func overlay(_ grid: inout CellGrid, _ lines: [String], width: Int, height: Int, scroll: Int = 0) {
        let boxWidth = min(width - 2, (lines.map { DisplayWidth.of($0) }.max() ?? 0) + 4)
        let rows = lines.flatMap { $0.isEmpty ? [""] : TextWrapper.wrap($0, width: max(1, boxWidth - 3)) }
        let boxHeight = min(height - 2, rows.count + 2)
        let x0 = max(0, (width - boxWidth) / 2), y0 = max(0, (height - boxHeight) / 2)
        for y in y0..<(y0 + boxHeight) { grid.fill(y: y, from: x0, to: x0 + boxWidth, style: Style(.selected)) }
        let shown = max(0, boxHeight - 2)
        let start = max(0, min(scroll, rows.count - shown))
        for (i, line) in rows.dropFirst(start).prefix(shown).enumerated() {
            grid.put(line, x: x0 + 2, y: y0 + 1 + i, style: Style(.selected), maxWidth: boxWidth - 3)
        }
        if shown > 0 { grid.cursor = CellPosition(x: x0 + 2, y: y0 + 1) }  // the box's first line
        if start > 0 { grid.put("▲", x: x0 + boxWidth - 1, y: y0 + 1, style: Style(.selected)) }
        if start + shown < rows.count, shown > 1 { grid.put("▼", x: x0 + boxWidth - 1, y: y0 + shown, style: Style(.selected)) }
    }
}

extension PageRenderer {
    /// A list (backlog, bookmarks) over the whole area between the title bar and the status line: its
    /// heading, then the items, the selected one highlighted.
    static func drawList(_ grid: inout CellGrid, _ list: PickList, width: Int, height: Int) {
        for y in 1..<(height - 1) { grid.fill(y: y, style: Style(.text)) }
        grid.put(list.heading, x: 2, y: 1, style: Style(.title), maxWidth: width - 4)
        grid.cursor = CellPosition(x: 2, y: 1)  // the heading, until a selected item takes it
        let rows = height - 4
        for (i, line) in list.lines(width: width - 6, rows: rows).enumerated() {
            let y = 3 + i
            if line.selected {
                grid.fill(y: y, from: 1, to: width - 1, style: Style(.selected))
                grid.cursor = CellPosition(x: 3, y: y)
            }
            grid.put(line.text, x: 3, y: y, style: Style(line.selected ? .selected : .text), maxWidth: width - 6)
        }
    }
}
