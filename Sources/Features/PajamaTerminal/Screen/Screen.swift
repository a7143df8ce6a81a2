import CNcursesw
import Dispatch
import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaStorage
import PajamaImage

/// The only code that talks to ncurses: sets the terminal up, draws a `CellGrid` (changed cells only),
/// reads keys without blocking, and restores the terminal.
@MainActor
public final class Screen {
    public private(set) var width = 0
    public private(set) var height = 0
    /// Colours the terminal has (0 when none).
    public private(set) var colors = 0
    public var theme: Theme {
        didSet { resetColors() }
    }

    private var previous: CellGrid?
    /// Whether the next `draw` must clear the terminal and send every cell (after `invalidate()`).
    private var repaintTerminal = false
    private var pairs: [PairKey: Int32] = [:]
    /// Each style's attributes and pair, worked out once (until the theme changes or the pairs start over).
    private var looks = StyleLookTable<(attr_t, Int32)>()
    private var nextPair: Int32 = 1
    /// Counts the times `pairs` started over (ran out of colour pairs).
    private var pairGeneration = 0
    private var isOpen = false
    /// The picture drawn in pixels over the cells (sixel, kitty), kept in step with each frame.
    private var pixelLayer = PixelLayer()
    /// Replies to the picture queries still to come (the probe stopped waiting before they did): read as
    /// keys, they are taken out.
    private var lateReplies: LateReplies?
    /// Keys the filter gave back to curses, read next as they are.
    private var keysGivenBack = 0
    /// The late replies changed how pictures are drawn: the next `readKey` says so (`Key.picturesChanged`).
    private var picturesChanged = false
    /// The cells the frame being drawn changes (whether a sixel picture must be sent again: `ChangedCells.mayCover`).
    private var changed = ChangedCells.none

    // Waiting for input without polling: a read source on stdin wakes the loop's `waitForInput`.
    private var inputSource: (any DispatchSourceRead)?
    private var inputSuspended = false
    private let wakeup = LoopWakeup()
    /// True once the terminal has gone away (hang-up or closed input); the loop should end.
    public private(set) var inputClosed = false

    private struct PairKey: Hashable {
        var fg: Int
        var bg: Int
    }

    /// What the terminal can do (checked before curses starts; see `TerminalCapabilities`). Its graphics
    /// change once if the terminal's late replies say pixels (`readKey` then gives `.picturesChanged`).
    public private(set) var capabilities: TerminalCapabilities
    /// The quit signals that end the loop drawing on this screen (none in a screen nobody signals).
    private let signals: QuitSignals?

    public init(theme: Theme, capabilities: TerminalCapabilities, signals: QuitSignals? = nil) {
        self.theme = theme
        self.capabilities = capabilities
        self.signals = signals
        lateReplies = capabilities.graphics.pendingReplies.map(LateReplies.init(continuing:))
    }

    /// Enters curses mode (alternate screen, no echo, keypad, non-blocking reads, hidden cursor).
    public func open() {
        guard !isOpen else { return }
        TerminalLocale.setUp()  // a UTF-8 character set even with no LANG, before curses reads it
        if getenv("ESCDELAY") == nil { set_escdelay(25) }
        initscr()
        isOpen = true
        // ncurses writes to the terminal at every cursor movement of a frame (25-45 writes a frame) until
        // the program has once left curses mode and come back: `_nc_mvcur` flushes while the screen is
        // in its initial state (`_endwin == ewInitial`, lib_mvcur.c; for low-level terminfo programs),
        // and only `doupdate` after `endwin` moves it on. Going out and back in once, before anything is
        // drawn, makes a frame one write (see docs/performance.md).
        endwin()
        doupdate()
        cbreak()
        noecho()
        nonl()
        keypad(pajama_stdscr(), true)
        nodelay(pajama_stdscr(), true)
        curs_set(0)
        if has_colors() {
            start_color()
            use_default_colors()
            colors = Int(pajama_colors())
        }
        looks.removeAll()
        mousemask(mmask_t(PAJAMA_BUTTON1_CLICKED | PAJAMA_BUTTON1_PRESSED), nil)
        updateSize()
        watchInput()
        signals?.onSignal = { [weak self] in self?.wake() }
    }

    /// Leaves curses mode and gives the terminal back as it was. A terminal without an alternate screen
    /// (linux, vt100) is cleared, so the last frame does not stay up under the shell's prompt.
    public func close() {
        guard isOpen else { return }
        isOpen = false
        if let source = inputSource {
            if inputSuspended { source.resume() }  // a suspended source must not be released
            source.cancel()
            inputSource = nil
        }
        wake()
        PixelOutput.write(pixelLayer.close())
        mousemask(0, nil)
        curs_set(1)
        endwin()
        if !capabilities.hasAlternateScreen, TerminalCapabilities.hasString("clear") {
            // After endwin the terminfo entry is still loaded; putp applies the entry's padding.
            putp(tigetstr("clear"))
            fflush(nil)
        }
    }

    private func updateSize() {
        height = Int(pajama_lines())
        width = Int(pajama_cols())
    }

    private func resetColors() {
        pairs.removeAll()
        looks.removeAll()
        nextPair = 1
        previous = nil
    }

    /// Draws `grid`, writing only the cells that changed since the last frame. Returns the grid of the frame
    /// before, which the screen no longer needs: compose the next frame into it (`CellGrid.clear`), and the
    /// two grids take turns, no frame allocating one.
    @discardableResult
    public func draw(_ grid: CellGrid) -> CellGrid? {
        guard isOpen else { return nil }
        let repaint = repaintTerminal
        changed.removeAll(rows: height)
        if repaintTerminal {
            // After a resize the terminal may not show what ncurses believes it does (a 1x1 window scrolled
            // the page away): clear it and send every cell, not only the cells ncurses thinks changed.
            clearok(pajama_stdscr(), true)
            repaintTerminal = false
        }
        let pairs = pairGeneration
        put(grid, changedSince: previous)
        if pairGeneration != pairs {
            // The colour pairs ran out during this frame and were started over: cells drawn before that use
            // pair numbers that now stand for other colours. Send the whole frame again with the new pairs
            // (once: a frame that needs more pairs than the terminal has keeps the colours it got).
            put(grid, changedSince: nil)
        }
        let spare = previous
        previous = grid
        let pixels = pixelLayer.plan(next: grid.pixels, repaint: repaint, changes: changed)
        if let rows = pixels.redraw { wredrawln(pajama_stdscr(), Int32(rows.lowerBound), Int32(rows.count)) }
        // The cursor parked on the frame's focus (docs/reader.md, "The cursor"): doupdate leaves the terminal's
        // cursor where the window's is. (The pixels are drawn after with the cursor saved and restored.)
        if let cursor = grid.cursor, cursor.x >= 0, cursor.y >= 0, cursor.x < width, cursor.y < height {
            wmove(pajama_stdscr(), Int32(cursor.y), Int32(cursor.x))
        }
        wnoutrefresh(pajama_stdscr())
        doupdate()
        PixelOutput.write(pixels.bytes)  // after the cells: ncurses knows nothing of the pixels
        if pixels.redraw != nil || !pixels.bytes.isEmpty { Self.log(pixels, shown: grid.pixels) }
        return spare
    }

    /// Says what a frame did to the picture in pixels (the Xvfb end-to-end tests read where it went).
    private static func log(_ plan: PixelLayer.Plan, shown: PixelPlacement?) {
        if let shown {
            let picture = shown.picture
            PajamaLog.reader.debug(
                "pictures: \(picture.pixelProtocol.rawValue) picture at cell \(shown.x),\(shown.y), \(picture.columns)x\(picture.rows) cells, \(picture.pixelWidth)x\(picture.pixelHeight) pixels, \(plan.bytes.count) bytes (\(plan.sendsData ? "its data sent" : "placed by id"))")
        } else {
            PajamaLog.reader.debug("pictures: picture taken away")
        }
    }

    /// Puts the cells of `grid` that differ from `before` (all of them, on a cleared screen, when nil or of
    /// another size).
    private func put(_ grid: CellGrid, changedSince before: CellGrid?) {
        let before = before.flatMap { $0.width == grid.width && $0.height == grid.height ? $0 : nil }
        if before == nil { werase(pajama_stdscr()) }
        let (lastX, lastY) = (width - 1, height - 1)
        grid.forEachChange(since: before, columns: width, rows: height) { x, y, cell in
            changed.add(x: x, y: y)
            if cell.glyph.isEmpty { return }  // right half of a wide character
            // The last cell of the screen: writing it would scroll on some terminals.
            if y == lastY && x == lastX { return }
            put(cell, x: x, y: y)
        }
    }

    private func put(_ cell: CellGrid.Cell, x: Int, y: Int) {
        let generation = pairGeneration
        var (attributes, pair) = looks.look(cell.style, look)
        if pairGeneration != generation {
            // The pairs started over while working this look out: the table's other looks are stale.
            looks.removeAll()
            (attributes, pair) = looks.look(cell.style, look)
        }
        var character = cchar_t()
        var extendedPair = pair
        cell.glyph.withTerminatedScalars { scalars in
            scalars.withMemoryRebound(to: wchar_t.self, capacity: 5) { wide in
                _ = setcchar(&character, wide, attributes, Int16(truncatingIfNeeded: min(pair, 32767)), &extendedPair)
            }
        }
        mvwadd_wch(pajama_stdscr(), Int32(y), Int32(x), &character)
    }

    private func look(_ style: Style) -> (attr_t, Int32) {
        let role = theme.style(style.role)
        var attributes = PAJAMA_A_NORMAL
        if role.bold == true { attributes |= PAJAMA_A_BOLD }
        if role.dim == true { attributes |= PAJAMA_A_DIM }
        if role.reverse == true { attributes |= PAJAMA_A_REVERSE }
        if role.underline == true { attributes |= PAJAMA_A_UNDERLINE }
        if role.italic == true { attributes |= PAJAMA_A_ITALIC }
        let own = style.attributes
        if own.contains(.bold) { attributes |= PAJAMA_A_BOLD }
        if own.contains(.italic) { attributes |= PAJAMA_A_ITALIC }
        if own.contains(.underline) { attributes |= PAJAMA_A_UNDERLINE }
        if own.contains(.dim) { attributes |= PAJAMA_A_DIM }
        guard colors >= 8 else {
            if style.role == .selected || style.role == .status { attributes |= PAJAMA_A_REVERSE }
            return (attributes, 0)
        }
        let (fg, bg) = theme.colorNumbers(of: style, colors: colors, terminalBackground: capabilities.graphics.background)
        if fg == -1 && bg == -1 { return (attributes, 0) }
        let key = PairKey(fg: fg, bg: bg)
        if let pair = pairs[key] { return (attributes, pair) }
        if Int(nextPair) >= Int(pajama_color_pairs()) - 1 {
            // Out of pairs (many picture colours): start over; `draw` sends the frame again in full.
            pairs.removeAll()
            nextPair = 1
            pairGeneration += 1
        }
        let pair = nextPair
        nextPair += 1
        init_extended_pair(pair, Int32(fg), Int32(bg))
        pairs[key] = pair
        return (attributes, pair)
    }

    /// The next key, or nil when none is waiting. Never blocks.
    public func readKey() -> Key? {
        guard isOpen else { return nil }
        if picturesChanged {
            picturesChanged = false
            return .picturesChanged
        }
        var value: wint_t = 0
        let result = wget_wch(pajama_stdscr(), &value)
        if result == ERR { return nil }
        let givenBack = keysGivenBack > 0
        if givenBack { keysGivenBack -= 1 }
        if result == KEY_CODE_YES {
            switch Int32(value) {
            case KEY_UP: return .up
            case KEY_DOWN: return .down
            case KEY_LEFT: return .left
            case KEY_RIGHT: return .right
            case KEY_BACKSPACE: return .backspace
            case KEY_PPAGE: return .pageUp
            case KEY_NPAGE: return .pageDown
            case KEY_ENTER: return .enter
            case PAJAMA_KEY_RESIZE:
                updateSize()
                previous = nil
                return .resize
            case PAJAMA_KEY_MOUSE:
                var event = MEVENT()
                if getmouse(&event) == OK { return .click(x: Int(event.x), y: Int(event.y)) }
                return nil
            default: return nil
            }
        }
        if !givenBack, var late = lateReplies, value < 0x80, value == 27 || late.isPartial {
            // Maybe a late reply: it and what came with it go through the filter; keys in it are read again.
            var bytes = [UInt8(value)]
            var next: wint_t = 0
            while true {
                let more = wget_wch(pajama_stdscr(), &next)
                if more == ERR { break }
                if more == KEY_CODE_YES || next >= 0x80 {  // a key: back to curses, read next as it is
                    if more == KEY_CODE_YES { ungetch(Int32(next)) } else { unget_wch(wchar_t(next)) }
                    keysGivenBack += 1
                    break
                }
                bytes.append(UInt8(next))
            }
            let keys = late.keys(in: bytes)
            lateReplies = late.isDone ? nil : late
            if late.isDone { lateRepliesCame(late.replies) }
            if keys.first == 27 { return .escape }
            for key in keys.reversed() { unget_wch(wchar_t(key)) }  // curses gives back the last pushed first
            keysGivenBack += keys.count
            return readKey()
        }
        switch value {
        case 10, 13: return .enter
        case 27: return .escape
        case 127, 8: return .backspace
        default:
            guard let scalar = Unicode.Scalar(UInt32(value)) else { return nil }
            return .character(Character(scalar))
        }
    }

    /// Every reply to the picture queries is in, after the probe stopped waiting: pictures in pixels from now
    /// on if they say so (unless `--pictures cells`), the loop told by the next `readKey`.
    private func lateRepliesCame(_ replies: GraphicsReplies) {
        guard let graphics = capabilities.graphics.afterLateReplies(replies) else {
            PajamaLog.reader.info("pictures: the terminal's late replies came; pictures stay \(capabilities.graphics.name)")
            capabilities.graphics.pendingReplies = nil
            return
        }
        // The background the late replies told (OSC 11) may change the text colours worked out so far.
        if graphics.background != capabilities.graphics.background { resetColors() }
        capabilities.graphics = graphics
        picturesChanged = true
        PajamaLog.reader.info("pictures: \(graphics.reason)")
    }

    // MARK: Waiting

    /// The quit signal to end on: one that arrived, or SIGHUP when the terminal went away.
    public var quitSignal: Int32? { signals?.received ?? (inputClosed ? SIGHUP : nil) }

    private func watchInput() {
        let source = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: .main)
        source.setEventHandler { [weak self] in MainActor.assumeIsolated { self?.inputReady() } }
        source.resume()
        inputSource = source
        inputSuspended = false
    }

    private func inputReady() {
        var request = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        if poll(&request, 1, 0) > 0 {
            var pending: Int32 = 0
            let hungUp = request.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
            // Readable with nothing to read is the end of the input (a closed pipe or file).
            let ended = request.revents & Int16(POLLIN) != 0 && ioctl(STDIN_FILENO, UInt(FIONREAD), &pending) == 0 && pending == 0
            if hungUp || ended { inputClosed = true }
        }
        // The source fires as long as bytes are unread: rest until the loop has read the keys.
        if !inputSuspended {
            inputSource?.suspend()
            inputSuspended = true
        }
        wake()
    }

    /// Ends the current (or the next) `waitForInput` at once.
    public func wake() { wakeup.wake() }

    /// Waits until a key may be waiting, `wake()` is called (a signal, a finished load), or `timeout`
    /// passes. Read the keys with `readKey()` afterwards.
    public func waitForInput(timeout: Duration) async {
        if inputSuspended, !inputClosed, let source = inputSource {
            inputSuspended = false
            source.resume()
        }
        await wakeup.wait(timeout: timeout, ready: inputClosed || !isOpen)
    }

    /// Forces the next `draw` to repaint everything (after a resize or a theme change).
    public func invalidate() {
        updateSize()
        previous = nil
        repaintTerminal = true
    }
}
