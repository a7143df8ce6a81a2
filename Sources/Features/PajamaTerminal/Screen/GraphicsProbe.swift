import FoundationEssentials
import Glibc
import PajamaBasics

/// Asks the terminal, before curses starts, whether it shows pixels: the kitty graphics query, XTSMGRAPHICS
/// (the largest sixel picture), `CSI 16 t` (the cell size in pixels), OSC 11 (the background colour, what
/// transparent pixels lie on when the theme leaves the background to the terminal) and, last, Primary Device Attributes
/// (a 4 is sixel; every terminal answers it, so its reply ends the wait). Waits at most `timeout` and
/// reads every reply that came, so none is left in the input for curses to read as keys.
public enum GraphicsProbe {
    /// The queries, in order (the device attributes last).
    public static let query: [UInt8] = Array("\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\\u{1B}[?2;1;0S\u{1B}[16t\u{1B}]11;?\u{1B}\\\u{1B}[c".utf8)
    /// The longest wait for the replies: a terminal that does not answer costs no more.
    public static let timeout: Duration = .milliseconds(100)
    /// How much longer `pajama doctor` waits for replies still missing after `timeout` (a terminal slow to
    /// start, a slow link): the reader takes them whenever they come (`LateReplies`), so the doctor waits
    /// for them too instead of reporting cells for a terminal that shows pixels.
    public static let doctorPatience: Duration = .seconds(5)

    /// How to show pictures on the terminal at `input` and `output` for `choice`: asks the terminal unless
    /// the answer is known without it (`--pictures cells`, a multiplexer, no terminal, the Linux console).
    /// `patience`: how much longer to wait for replies missing after `timeout` (0: none; the reader takes
    /// late ones as they come), `waiting` called once when that longer wait starts.
    public static func detect(_ choice: TerminalGraphics.Choice, environment: [String: String] = ProcessInfo.processInfo.environment,
                              input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO, patience: Duration = .zero,
                              waiting: () -> Void = {}) -> TerminalGraphics {
        if choice == .cells { return .decide(.cells, replies: nil, kernelCellSize: nil, multiplexer: nil) }
        guard isatty(input) != 0, isatty(output) != 0 else { return .cells("cells: not a terminal") }
        let multiplexer = TerminalGraphics.multiplexer(in: environment)
        let kernel = kernelCellSize(output)
        if choice == .auto, let multiplexer {
            return .decide(.auto, replies: nil, kernelCellSize: kernel, multiplexer: multiplexer)
        }
        if choice == .auto, environment["TERM"] == "linux" {
            return .cells("cells: the Linux console shows no pixels")  // and would print the kitty query as text
        }
        let replies = ask(input: input, output: output, timeout: timeout, patience: patience, waiting: waiting)
        var graphics = TerminalGraphics.decide(choice, replies: replies, kernelCellSize: kernel, multiplexer: multiplexer)
        graphics.pendingReplies = replies.isComplete ? nil : replies
        graphics.choice = choice
        graphics.kernelCellSize = kernel
        graphics.background = replies.background
        return graphics
    }

    /// The cell size in pixels from `TIOCGWINSZ`, when the terminal fills in its pixel fields.
    public static func kernelCellSize(_ descriptor: Int32) -> GraphicsReplies.Size? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0, size.ws_xpixel > 0, size.ws_ypixel > 0 else {
            return nil
        }
        return GraphicsReplies.Size(width: Int(size.ws_xpixel) / Int(size.ws_col), height: Int(size.ws_ypixel) / Int(size.ws_row))
    }

    /// Sends `query` and reads the replies until the device attributes come or `timeout` passes (then, if
    /// they have not come, `waiting()` and up to `patience` more), with the terminal in non-canonical mode
    /// without echo (restored after), so no late reply is echoed.
    public static func ask(input: Int32, output: Int32, timeout: Duration, patience: Duration = .zero,
                           waiting: () -> Void = {}) -> GraphicsReplies {
        var replies = GraphicsReplies()
        var saved = termios()
        guard tcgetattr(input, &saved) == 0 else { return replies }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(input, TCSANOW, &raw) == 0 else { return replies }
        defer { tcsetattr(input, TCSANOW, &saved) }
        let sent = query.withUnsafeBytes { write(output, $0.baseAddress, $0.count) }
        guard sent == query.count else { return replies }
        var buffer = [UInt8](repeating: 0, count: 1024)
        func readReplies(until deadline: ContinuousClock.Instant) {
            while !replies.isComplete {
                let left = deadline - .now
                guard left > .zero else { break }
                var request = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
                let milliseconds = Int32(max(1, left.components.attoseconds / 1_000_000_000_000_000 + left.components.seconds * 1000))
                let ready = poll(&request, 1, milliseconds)
                if ready < 0, errno == EINTR { continue }
                guard ready > 0 else { break }
                let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR || errno == EAGAIN { continue }
                guard count > 0 else { break }
                replies.feed(Array(buffer.prefix(count)))
            }
        }
        readReplies(until: .now + timeout)
        if !replies.isComplete, patience > .zero {
            waiting()
            readReplies(until: .now + patience)
        }
        return replies
    }
}
