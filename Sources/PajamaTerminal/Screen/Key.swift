/// A key press, as the reader understands it.
public enum Key: Sendable, Equatable {
    case character(Character)
    case enter, up, down, left, right, backspace, pageUp, pageDown, escape, resize
    /// A mouse click at a cell.
    case click(x: Int, y: Int)
}
