import PajamaImage

/// What the reader loop needs from a terminal: draw a frame, read keys, sleep until input or a deadline,
/// its size and look. `Screen` is the ncurses one; `HeadlessTerminal` is one with no I/O for tests and
/// the bench.
@MainActor
public protocol ReaderTerminal: AnyObject {
    var width: Int { get }
    var height: Int { get }
    /// Colours the terminal has (0 when none).
    var colors: Int { get }
    var capabilities: TerminalCapabilities { get }
    var theme: Theme { get set }
    /// Draws `grid` (only what changed since the last frame, where the terminal can tell). Returns a grid the
    /// terminal no longer needs (the frame before), to compose the next frame into.
    @discardableResult
    func draw(_ grid: CellGrid) -> CellGrid?
    /// The next key, or nil when none is waiting. Never blocks.
    func readKey() -> Key?
    /// Waits until a key may be waiting, `wake()` is called, or `timeout` passes.
    func waitForInput(timeout: Duration) async
    /// Ends the current (or the next) `waitForInput` at once.
    func wake()
    /// Forces the next `draw` to repaint everything (after a resize or a theme change).
    func invalidate()
    /// The quit signal to end on (a signal that arrived, SIGHUP when the terminal went away), if any.
    var quitSignal: Int32? { get }
}

extension ReaderTerminal {
    /// How pictures are drawn here (colour mode, symbols, the theme's backdrop).
    public var pictureLook: PictureLook { PictureLook(term: capabilities.name, colors: colors, theme: theme, pixels: capabilities.graphics.pixels,
                                                  terminalBackground: capabilities.graphics.background) }
}

extension Screen: ReaderTerminal {}
