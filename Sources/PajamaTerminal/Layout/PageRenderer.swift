import PajamaCore

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
        "1-9               take that choice",
        "↑ ↓ then Enter    move and take",
        "PgUp PgDn         scroll a long page",
        "r                 restart (asks first)",
        "m  + -            mute, volume",
        "t                 next theme",
        "?                 this help",
        "q Esc             quit",
    ]

    public static func render(_ model: ScreenModel, width: Int, height: Int) -> CellGrid {
        var grid = CellGrid(width: width, height: height)
        guard width >= minimumSize.width, height >= minimumSize.height else {
            let message = TextWrapper.wrap("terminal too small", width: max(1, width))
            for (i, line) in message.prefix(max(0, height)).enumerated() { grid.put(line, x: 0, y: i, style: Style(.error)) }
            return grid
        }
        var bodyRight = width
        if let stats = model.statsLines, width >= 60 {
            let panel = min(32, width / 3)
            bodyRight = width - panel
            for (i, line) in stats.prefix(height - 2).enumerated() {
                grid.put(line, x: bodyRight + 1, y: 1 + i, style: Style(.dim), maxWidth: panel - 1)
            }
        }
        // Header and status line.
        grid.fill(y: 0, style: Style(.status))
        grid.put(" " + model.storyTitle, x: 0, y: 0, style: Style(.status), maxWidth: width)
        grid.fill(y: height - 1, style: Style(.status))
        let right = model.notice.map { $0 + "  " + model.soundStatus } ?? model.soundStatus
        let rightWidth = DisplayWidth.of(DisplayWidth.sanitize(right))
        grid.put(" " + model.position, x: 0, y: height - 1, style: Style(.status), maxWidth: max(0, width - rightWidth - 2))
        if rightWidth + 2 < width { grid.put(right + " ", x: width - rightWidth - 1, y: height - 1, style: Style(.status)) }

        let body = Rect(x: 2, y: 2, width: max(1, bodyRight - 4), height: max(1, height - 4))
        switch model.content {
        case .blank:
            break
        case .loading(let text):
            center(&grid, [text], in: body, style: Style(.dim))
        case .error(let message, let canSkip):
            var lines = ["Could not load this page."] + TextWrapper.wrap(DisplayWidth.sanitize(message), width: body.width)
            lines.append("")
            lines.append(canSkip ? "r retry · s skip · q quit" : "r retry · q quit")
            center(&grid, lines, in: body, style: Style(.error))
        case .page(let view):
            drawPage(&grid, view, in: body)
        case .finished(let view):
            let end = "The End — r restart · q quit"
            drawPage(&grid, view, in: Rect(x: body.x, y: body.y, width: body.width, height: max(1, body.height - 2)))
            grid.put(end, x: body.x + max(0, (body.width - DisplayWidth.of(end)) / 2), y: body.y + body.height - 1, style: Style(.title))
        }
        if model.confirmRestart {
            overlay(&grid, ["Restart from the beginning?", "", "y yes · n no"], width: width, height: height)
        } else if model.showHelp {
            overlay(&grid, ["Keys", ""] + helpLines + ["", "any key to close"], width: width, height: height)
        }
        return grid
    }

    // MARK: Pages

    struct Rect {
        var x, y, width, height: Int
    }

    private static func drawPage(_ grid: inout CellGrid, _ view: PageView, in area: Rect) {
        var textArea = area
        if let picture = view.picture {
            let placed = place(picture, in: area)
            for (rowIndex, row) in placed.cells.enumerated() {
                for (columnIndex, cell) in row.enumerated() {
                    let x = placed.x + columnIndex, y = placed.y + rowIndex
                    if x < grid.width, y < grid.height { grid[x, y] = cell }
                }
            }
            textArea = placed.remaining
        } else if view.pictureMissing {
            grid.put("[picture]", x: area.x, y: area.y, style: Style(.dim))
            textArea = Rect(x: area.x, y: area.y + 2, width: area.width, height: max(1, area.height - 2))
        }
        var lines: [(String, Style)] = []
        switch view.page.kind {
        case .title(let title, let subtitle):
            var block: [(String, Style)] = TextWrapper.wrap(DisplayWidth.sanitize(title), width: textArea.width).map { ($0, Style(.title)) }
            if let subtitle {
                block.append(("", Style(.text)))
                block += TextWrapper.wrap(DisplayWidth.sanitize(subtitle), width: textArea.width).map { ($0, Style(.subtitle)) }
            }
            let top = textArea.y + max(0, (textArea.height - block.count) / 2)
            for (i, (line, style)) in block.enumerated() where top + i < textArea.y + textArea.height {
                grid.put(line, x: textArea.x + max(0, (textArea.width - DisplayWidth.of(line)) / 2), y: top + i, style: style)
            }
            return
        case .text(let paragraphs):
            let shown = paragraphs.prefix(max(1, view.revealedLines))
            for (i, paragraph) in shown.enumerated() {
                if i > 0 { lines.append(("", Style(.text))) }
                lines += TextWrapper.wrap(DisplayWidth.sanitize(paragraph), width: textArea.width).map { ($0, Style(.text)) }
            }
            if view.revealedLines < paragraphs.count { lines.append(("", Style(.text))); lines.append(("▸", Style(.dim))) }
        case .choice(let prompt, let choices):
            if let prompt {
                lines += TextWrapper.wrap(DisplayWidth.sanitize(prompt), width: textArea.width).map { ($0, Style(.prompt)) }
                lines.append(("", Style(.text)))
            }
            for (i, choice) in choices.enumerated() {
                let selected = i == view.selectedChoice
                let wrapped = TextWrapper.wrap(DisplayWidth.sanitize(choice.text), width: max(1, textArea.width - 5))
                for (k, part) in wrapped.enumerated() {
                    let prefix = k == 0 ? (selected ? "› \(i + 1). " : "  \(i + 1). ") : "     "
                    lines.append((prefix + part, Style(selected ? .selected : .choice)))
                }
            }
        }
        let start = min(max(0, view.scroll), max(0, lines.count - textArea.height))
        for (i, (line, style)) in lines.dropFirst(start).prefix(textArea.height).enumerated() {
            if style.role == .selected { grid.fill(y: textArea.y + i, from: textArea.x, to: textArea.x + textArea.width, style: style) }
            grid.put(line, x: textArea.x, y: textArea.y + i, style: style, maxWidth: textArea.width)
        }
    }

    /// Where a picture goes: beside the text on wide areas, above it on narrow ones.
    private static func place(_ picture: StoryImage, in area: Rect) -> (cells: [[CellGrid.Cell]], x: Int, y: Int, remaining: Rect) {
        if area.width + 4 >= sideBySideWidth {
            let pictureWidth = area.width * 2 / 5
            let cells = PictureRenderer.cells(for: picture, width: pictureWidth, height: area.height)
            let used = cells.map(\.count).max() ?? 0
            let y = area.y + max(0, (area.height - cells.count) / 2)
            return (cells, area.x, y, Rect(x: area.x + used + 3, y: area.y, width: max(1, area.width - used - 3), height: area.height))
        }
        let pictureHeight = max(1, area.height * 2 / 5)
        let cells = PictureRenderer.cells(for: picture, width: area.width, height: pictureHeight)
        let used = cells.count
        let x = area.x + max(0, (area.width - (cells.map(\.count).max() ?? 0)) / 2)
        return (cells, x, area.y, Rect(x: area.x, y: area.y + used + 1, width: area.width, height: max(1, area.height - used - 1)))
    }

    private static func center(_ grid: inout CellGrid, _ lines: [String], in area: Rect, style: Style) {
        let top = area.y + max(0, (area.height - lines.count) / 2)
        for (i, line) in lines.enumerated() where top + i < area.y + area.height {
            let clipped = TextWrapper.clip(line, width: area.width)
            grid.put(clipped, x: area.x + max(0, (area.width - DisplayWidth.of(clipped)) / 2), y: top + i, style: style)
        }
    }

    private static func overlay(_ grid: inout CellGrid, _ lines: [String], width: Int, height: Int) {
        let boxWidth = min(width - 2, (lines.map { DisplayWidth.of($0) }.max() ?? 0) + 4)
        let boxHeight = min(height - 2, lines.count + 2)
        let x0 = max(0, (width - boxWidth) / 2), y0 = max(0, (height - boxHeight) / 2)
        for y in y0..<(y0 + boxHeight) { grid.fill(y: y, from: x0, to: x0 + boxWidth, style: Style(.selected)) }
        for (i, line) in lines.prefix(boxHeight - 2).enumerated() {
            grid.put(line, x: x0 + 2, y: y0 + 1 + i, style: Style(.selected), maxWidth: boxWidth - 3)
        }
    }
}
