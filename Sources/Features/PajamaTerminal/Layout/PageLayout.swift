/// Where things go on a page: the picture's box, and the picture + text block.
///
/// Wide areas put the picture beside the text, narrow ones above it. Either way the picture and the
/// text form one block, centred horizontally and vertically in the page area (title, text and choice
/// pages alike); the text column is at most `maximumTextWidth` cells, so lines stay readable on wide
/// terminals. The block's height counts every line of the page, revealed or not, so revealing a line
/// never moves the page. Pure arithmetic: the same answers for the renderer and for the reader, which
/// asks for the picture to be rendered at `pictureBox` size before it is needed.
enum PageLayout {
    /// A rectangle of cells.
    struct Rect: Equatable {
        var x, y, width, height: Int
        var bottom: Int { y + height }
    }

    /// Cells between the picture and the text when side by side.
    static let gutter = 3
    /// Widest text column (a readable line length).
    static let maximumTextWidth = 76
    /// Widest picture beside the text.
    static let maximumPictureWidth = 80
    /// Narrow areas lower than this show no picture (the text needs the room).
    static let minimumHeightForPictureAbove = 8

    /// Side by side from `PageRenderer.sideBySideWidth` terminal columns on (the page area has a
    /// two-cell margin each side).
    static func isWide(_ area: Rect) -> Bool { area.width + 4 >= PageRenderer.sideBySideWidth }

    /// The largest box a picture may fill in `area`, or nil when there is no room for one.
    static func pictureBox(in area: Rect) -> (width: Int, height: Int)? {
        if isWide(area) {
            let width = min(maximumPictureWidth, area.width * 2 / 5)
            return width > 0 && area.height > 0 ? (width, area.height) : nil
        }
        guard area.height >= minimumHeightForPictureAbove, area.width > 0 else { return nil }
        return (area.width, area.height * 2 / 5)
    }

    /// The widest the text may wrap beside (or below) a figure `figureWidth` cells wide (0 for none).
    static func textWidth(figureWidth: Int, in area: Rect) -> Int {
        let room = isWide(area) && figureWidth > 0 ? area.width - figureWidth - gutter : area.width
        return max(1, min(maximumTextWidth, room))
    }

    /// Where the figure and the text start, for a figure `figureWidth` cells wide (0 for none) and a text
    /// whose widest line is `textWidth` cells: the block they make is centred horizontally.
    static func columns(figureWidth: Int, textWidth: Int, in area: Rect) -> (figureX: Int, textX: Int) {
        if isWide(area), figureWidth > 0 {
            let left = area.x + max(0, (area.width - figureWidth - gutter - textWidth) / 2)
            return (left, left + figureWidth + gutter)
        }
        return (area.x + max(0, (area.width - figureWidth) / 2), area.x + max(0, (area.width - textWidth) / 2))
    }

    /// The figure's top row and the text's rectangle (from its first row to the bottom of the area),
    /// for a figure `figureHeight` rows high (0 for none) and a text of `textLines` lines in all.
    static func rows(figureHeight: Int, textLines: Int, textX: Int, textWidth: Int, in area: Rect) -> (figureY: Int, text: Rect) {
        func text(from y: Int) -> Rect { Rect(x: textX, y: y, width: textWidth, height: max(0, area.bottom - y)) }
        if isWide(area) || figureHeight == 0 {
            let block = min(area.height, max(figureHeight, textLines))
            let top = area.y + (area.height - block) / 2
            return (top + max(0, (block - figureHeight) / 2), text(from: top + max(0, (block - textLines) / 2)))
        }
        let block = figureHeight + 1 + textLines
        let top = block <= area.height ? area.y + (area.height - block) / 2 : area.y
        return (top, text(from: top + figureHeight + 1))
    }
}
