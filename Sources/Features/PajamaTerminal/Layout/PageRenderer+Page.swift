import PajamaModel
import PajamaImage

extension PageRenderer {
    /// Text shown when a page's picture could not be loaded.
    static let pictureUnavailable = "picture unavailable"

    /// A page: its picture (pre-rendered cells, clipped to the picture box) or the placeholder for a
    /// picture that failed to load, and its text, placed as one block by `PageLayout`. Returns where the
    /// choices shown are (a wrapped choice: one box per row).
    static func drawPage(_ grid: inout CellGrid, _ view: PageView, in area: Rect) -> [ChoiceHitBox] {
        var choices: [ChoiceHitBox] = []
        let geometry = geometry(of: view, in: area)
        if let picture = view.picture {
            copy(picture, into: &grid, at: geometry.figureArea)
        } else if geometry.figureArea.width > 0 {
            drawPlaceholder(into: &grid, at: geometry.figureArea)
        }

        let textArea = geometry.textArea
        let shown = geometry.text.shown
        let start = min(max(0, view.scroll), geometry.maximumScroll)
        func indent(of line: Line) -> Int {
            let room = max(0, textArea.width - DisplayWidth.of(line.text))
            return switch line.alignment {
            case .left: 0
            case .center: room / 2
            case .right: room
            }
        }
        // The cursor on the focus: the selected choice's first row, else the last revealed paragraph's (the
        // title's first row), kept within the rows shown.
        let focus = view.page.choices.isEmpty
            ? shown.lastIndex(where: \.startsParagraph) ?? 0
            : shown.firstIndex { $0.choice == view.selectedChoice } ?? 0
        if textArea.height > 0, focus < shown.count {
            let row = min(max(focus, start), start + textArea.height - 1)
            let x = row == focus ? textArea.x + indent(of: shown[focus]) : textArea.x
            grid.cursor = CellPosition(x: min(x, grid.width - 1), y: textArea.y + row - start)
        }
        for (i, line) in shown.dropFirst(start).prefix(textArea.height).enumerated() {
            let y = textArea.y + i
            if line.style.role == .selected { grid.fill(y: y, from: textArea.x, to: textArea.x + textArea.width, style: line.style) }
            let indent = indent(of: line)
            if line.runs.isEmpty {
                grid.put(line.text, x: textArea.x + indent, y: y, style: line.style, maxWidth: textArea.width - indent)
            } else {
                var used = 0
                for run in line.runs {
                    var style = line.style
                    style.attributes = run.look.attributes
                    style.textColor = run.look.color
                    used += grid.put(run.text, x: textArea.x + indent + used, y: y, style: style, maxWidth: textArea.width - indent - used)
                }
            }
            if let choice = line.choice { choices.append(ChoiceHitBox(index: choice, x: textArea.x, y: y, width: textArea.width)) }
        }
        // Arrows in the text's right margin say there is more above or below (PgUp / PgDn).
        let arrowX = min(textArea.x + textArea.width, grid.width - 1)
        if start > 0, textArea.height > 0 { grid.put("▲", x: arrowX, y: textArea.y, style: Style(.dim)) }
        if start + textArea.height < shown.count, textArea.height > 1 {
            grid.put("▼", x: arrowX, y: textArea.y + textArea.height - 1, style: Style(.dim))
        }
        return choices
    }

    /// Where a page's picture and text go in `area`, and how far its text can scroll.
    struct Geometry {
        var figureArea: Rect
        var text: (shown: [Line], total: Int, widest: Int)
        var textArea: Rect
        var maximumScroll: Int { max(0, text.shown.count - textArea.height) }
    }

    static func geometry(of view: PageView, in area: Rect) -> Geometry {
        var figure = (width: 0, height: 0)
        let box = view.picture != nil || view.pictureMissing ? PageLayout.pictureBox(in: area) : nil
        if let box, let picture = view.picture {
            figure = (min(picture.width, box.width), min(picture.height, box.height))
        } else if let box, view.pictureMissing {
            let framed = DisplayWidth.of(pictureUnavailable) + 4
            figure = box.width >= framed && box.height >= 3 ? (framed, 3) : (min(box.width, framed - 2), 1)
        }
        let text = lines(of: view, width: PageLayout.textWidth(figureWidth: figure.width, in: area))
        let column = PageLayout.columns(figureWidth: figure.width, textWidth: text.widest, in: area)
        let rows = PageLayout.rows(figureHeight: figure.height, textLines: text.total, textX: column.textX,
                                   textWidth: text.widest, in: area)
        return Geometry(figureArea: Rect(x: column.figureX, y: rows.figureY, width: figure.width, height: figure.height),
                        text: text, textArea: rows.text)
    }

    /// One line of a page's text.
    struct Line {
        var text: String
        var style: Style
        /// Where the line sits in the text column (the title page's lines are centred).
        var alignment = TextAlignment.left
        /// The choice (0-based) this line shows, if any.
        var choice: Int?
        /// The first row of a paragraph of a text page (where the cursor goes when it is the last revealed).
        var startsParagraph = false
        /// The line's pieces with their own look (a story's bold, italic or coloured text); empty: all of
        /// `text` in `style`.
        var runs: [(text: String, look: TextLook)] = []
    }

    /// The lines shown now, wrapped at `width`; and, once every line is revealed, how many lines the page
    /// has and how wide the widest is (for placing the block, which must not move while lines appear). A text
    /// or choice page with a line the story centres or aligns right takes the whole width, so the alignment
    /// shows.
    static func lines(of view: PageView, width: Int) -> (shown: [Line], total: Int, widest: Int) {
        let (shown, all) = wrappedLines(of: view, width: width)
        var widest = all.reduce(1) { max($0, DisplayWidth.of($1.text)) }
        let isTitle = if case .title = view.page.kind { true } else { false }
        if !isTitle, view.page.marks.contains(where: { ($0.alignment ?? .left) != .left }) { widest = width }
        return (shown, all.count, min(width, widest))
    }

    private static func wrappedLines(of view: PageView, width: Int) -> (shown: [Line], all: [Line]) {
        func wrap(_ text: String, _ role: StyleRole, alignment: TextAlignment = .left) -> [Line] {
            TextWrapper.wrap(DisplayWidth.sanitize(text), width: width).map { Line(text: $0, style: Style(role), alignment: alignment) }
        }
        let blank = Line(text: "", style: Style(.text))
        switch view.page.kind {
        case .title(let title, let subtitle):
            var lines = view.page.marks(ofLine: 0).map { styledWrap(title, $0, width: width, role: .title, alignment: .center) }
                ?? wrap(title, .title, alignment: .center)
            if let subtitle {
                lines += [blank] + (view.page.marks(ofLine: 1).map { styledWrap(subtitle, $0, width: width, role: .subtitle, alignment: .center) }
                    ?? wrap(subtitle, .subtitle, alignment: .center))
            }
            return (lines, lines)
        case .text(let paragraphs):
            // Each paragraph wrapped once: the lines shown are the first paragraphs' lines.
            let wrapped = paragraphs.enumerated().map { index, paragraph in
                view.page.marks(ofLine: index).map { styledWrap(paragraph, $0, width: width) } ?? wrap(paragraph, .text)
            }
            func text(_ count: Int) -> [Line] {
                wrapped.prefix(count).enumerated().flatMap { i, lines in
                    var lines = lines
                    if !lines.isEmpty { lines[0].startsParagraph = true }
                    return (i > 0 ? [blank] : []) + lines
                }
            }
            var shown = text(max(1, view.revealedLines))
            if view.revealedLines < paragraphs.count { shown += [blank, Line(text: "▸", style: Style(.dim))] }
            return (shown, text(wrapped.count))
        case .choice(let prompt, let choices):
            var lines: [Line] = []
            if let prompt { lines += wrap(prompt, .prompt) + [blank] }
            for (i, choice) in choices.enumerated() {
                let selected = i == view.selectedChoice
                let style = Style(selected ? .selected : .choice)
                // A choice with marks (an ink story's HTML) is wrapped as a styled text line is.
                let wrapped = view.page.marks(ofLine: i).map { styledWrap(choice.text, $0, width: max(1, width - 5), role: style.role) }
                    ?? TextWrapper.wrap(DisplayWidth.sanitize(choice.text), width: max(1, width - 5)).map { Line(text: $0, style: style) }
                for (k, part) in wrapped.enumerated() {
                    let prefix = k == 0 ? (selected ? "› \(i + 1). " : "  \(i + 1). ") : "     "
                    lines.append(Line(text: prefix + part.text, style: style, alignment: part.alignment, choice: i,
                                      runs: part.runs.isEmpty ? [] : [(prefix, TextLook())] + part.runs))
                }
                // The votes beside the choice: after its last row where they fit, else on a row of their own.
                if let label = view.votes?.label(i), let last = lines.indices.last {
                    let tally = " · " + label
                    if DisplayWidth.of(lines[last].text) + DisplayWidth.of(tally) <= width {
                        lines[last].text += tally
                        if !lines[last].runs.isEmpty { lines[last].runs.append((tally, TextLook())) }
                    } else {
                        lines.append(Line(text: "     " + label, style: style, choice: i))
                    }
                }
            }
            return (lines, lines)
        case .question(let question):
            var lines: [Line] = []
            if let label = question.label { lines += wrap(label, .prompt) + [blank] }
            lines += TextWrapper.wrap(DisplayWidth.sanitize(view.answerLine), width: max(1, width - 2)).enumerated().map { index, part in
                Line(text: (index == 0 ? "› " : "  ") + part, style: Style(.selected))
            }
            lines += [blank] + wrap("(" + question.hint + "; Esc then a key for a command)", .dim)
            return (lines, lines)
        }
    }

    /// A paragraph with marks, wrapped at `width`: cut at its hard breaks, each row wrapped as plain text is,
    /// and every character given back its attributes (the wrapped text is the row's characters less the
    /// spaces dropped at line ends, so they are found again in order).
    /// `role`: the line's role (a text line's, a title's, a choice's); `alignment` where the marks say none
    /// (the title page centres).
    static func styledWrap(_ text: String, _ marks: LineMarks, width: Int, role: StyleRole = .text, alignment: TextAlignment = .left) -> [Line] {
        var lines: [Line] = []
        for row in marks.runs(of: text) {
            var characters: [(Character, TextLook)] = []
            for run in row { for character in DisplayWidth.sanitize(run.text) { characters.append((character, run.look)) } }
            var cursor = 0
            for wrapped in TextWrapper.wrap(String(characters.map(\.0)), width: width) {
                var runs: [(text: String, look: TextLook)] = []
                for character in wrapped {
                    while cursor < characters.count, characters[cursor].0 != character { cursor += 1 }
                    let look = cursor < characters.count ? characters[cursor].1 : TextLook()
                    cursor += 1
                    if let last = runs.last, last.look == look {
                        runs[runs.count - 1].text.append(character)
                    } else {
                        runs.append((String(character), look))
                    }
                }
                lines.append(Line(text: wrapped, style: Style(role), alignment: marks.alignment ?? alignment, runs: runs))
            }
        }
        return lines
    }

    /// Copies pre-rendered picture cells into `area` (clipped to it and to the grid). No picture work:
    /// the cells were made by `PictureCache` for this box, or for the previous size while that renders.
    private static func copy(_ picture: PictureCells, into grid: inout CellGrid, at area: Rect) {
        // Pixels only where the whole picture fits (cells of another size shown while this size renders: blank).
        if let pixels = picture.pixels, picture.width <= area.width, picture.height <= area.height, area.x >= 0, area.y >= 0,
            area.x + picture.width <= grid.width, area.y + picture.height <= grid.height
        {
            grid.pixels = PixelPlacement(picture: pixels, x: area.x, y: area.y)
        }
        for row in 0..<min(area.height, picture.height) {
            let y = area.y + row
            guard y >= 0, y < grid.height else { continue }
            let columns = min(area.width, picture.width)
            for column in 0..<columns {
                let x = area.x + column
                guard x >= 0, x < grid.width else { continue }
                let cell = picture[column, row]
                // A wide character cut in half by the clip would spill out of the box: draw a blank.
                let cut = column == columns - 1 && column + 1 < picture.width && picture[column + 1, row].glyph.isEmpty
                grid[x, y] = CellGrid.Cell(glyph: cut ? .space : cell.glyph,
                                           style: Style(pictureForeground: cell.foreground, pictureBackground: cell.background))
            }
        }
    }

    /// A small frame saying the picture is unavailable, or the words alone where a frame does not fit.
    private static func drawPlaceholder(into grid: inout CellGrid, at area: Rect) {
        let style = Style(.dim)
        guard area.height >= 3 else {
            grid.put(pictureUnavailable, x: area.x, y: area.y, style: style, maxWidth: area.width)
            return
        }
        let inner = String(repeating: "─", count: max(0, area.width - 2))
        grid.put("┌" + inner + "┐", x: area.x, y: area.y, style: style, maxWidth: area.width)
        grid.put("│ " + pictureUnavailable + " │", x: area.x, y: area.y + 1, style: style, maxWidth: area.width)
        grid.put("└" + inner + "┘", x: area.x, y: area.y + 2, style: style, maxWidth: area.width)
    }
}
