/// A key press, as the reader understands it.
public enum Key: Sendable, Equatable {
    case character(Character)
    case enter, up, down, left, right, backspace, pageUp, pageDown, escape, resize
    /// A mouse click at a cell.
    case click(x: Int, y: Int)
    /// Not a key: how pictures are drawn changed (the terminal's late replies said pixels; see
    /// `TerminalGraphics.afterLateReplies`): draw again with the terminal's new `pictureLook`.
    case picturesChanged
}
