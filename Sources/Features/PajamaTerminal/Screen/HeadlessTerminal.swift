import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaImage

/// A terminal with no I/O (like swift-nio's `EmbeddedChannel`): tests and the bench push keys into it
/// and read the last frame drawn as text. It drives the real reader loop (`ReaderController`).
@MainActor
public final class HeadlessTerminal: ReaderTerminal {
    public private(set) var width: Int
    public private(set) var height: Int
    public let colors: Int
    public let capabilities: TerminalCapabilities
    public var theme: Theme
    /// The last frame drawn, and how many frames were drawn so far.
    public private(set) var lastFrame: CellGrid?
    public private(set) var frameCount = 0
    /// Every frame drawn since `recordsFrames` was switched on, as text, in order (tests that look at each
    /// frame a key brings, not only the last).
    public private(set) var recordedFrames: [String] = []
    public var recordsFrames = false
    /// How many times the reader asked for a full repaint.
    public private(set) var invalidations = 0
    /// A quit signal the reader should end on (`sendSignal`).
    public private(set) var quitSignal: Int32?
    /// How many times the reader waited for input since it last read a key (a reader that quits on a key
    /// waits no more: 0).
    public private(set) var waitsSinceLastKey = 0

    private var keys: [Key] = []
    private let wakeup = LoopWakeup()
    private var frameWaiters: [CheckedContinuation<Void, Never>] = []

    public init(width: Int = 80, height: Int = 24, colors: Int = 0, theme: Theme = Theme.builtIn) {
        self.width = width
        self.height = height
        self.colors = colors
        self.theme = theme
        capabilities = TerminalCapabilities(name: "headless", hasEntry: true, canMoveCursor: true, hasAlternateScreen: true, colors: colors)
    }

    /// The last frame as plain text ("" before the first).
    public var text: String { lastFrame?.text() ?? "" }

    /// Where the terminal's cursor is after the last frame (as `Screen` parks it); nil: not parked.
    public var cursor: CellPosition? { lastFrame?.cursor }

    // MARK: Driving it

    /// Queues keys as if typed, and wakes the reader.
    public func push(_ newKeys: Key...) {
        keys += newKeys
        wake()
    }

    /// Types each character of `text`.
    public func type(_ text: String) {
        keys += text.map { Key.character($0) }
        wake()
    }

    /// Changes the size, as a terminal window resize does (the reader gets `.resize`).
    public func resize(width: Int, height: Int) {
        self.width = width
        self.height = height
        push(.resize)
    }

    /// A quit signal (SIGTERM, SIGHUP...) arriving.
    public func sendSignal(_ number: Int32) {
        quitSignal = number
        wake()
    }

    /// Waits until the last frame's text satisfies `condition`, or `timeout` passes (real time: the reader's
    /// loads run on real tasks). Returns whether it did.
    @discardableResult
    public func waitForFrame(timeout: Duration = .seconds(60), _ condition: (String) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !condition(text) {
            guard ContinuousClock.now < deadline else { return false }
            let timer = Task { @MainActor [weak self] in
                try? await Task.sleep(until: deadline)
                if !Task.isCancelled { self?.frameDrawn() }
            }
            await withCheckedContinuation { frameWaiters.append($0) }
            timer.cancel()
        }
        return true
    }

    /// Waits until the last frame contains `text`.
    @discardableResult
    public func waitForFrame(containing text: String, timeout: Duration = .seconds(60)) async -> Bool {
        await waitForFrame(timeout: timeout) { $0.contains(text) }
    }

    private func frameDrawn() {
        let waiting = frameWaiters
        frameWaiters.removeAll()
        for waiter in waiting { waiter.resume() }
    }

    // MARK: ReaderTerminal

    @discardableResult
    public func draw(_ grid: CellGrid) -> CellGrid? {
        let spare = lastFrame
        lastFrame = grid
        frameCount += 1
        if recordsFrames { recordedFrames.append(grid.text()) }
        frameDrawn()
        return spare
    }

    public func readKey() -> Key? {
        guard !keys.isEmpty else { return nil }
        waitsSinceLastKey = 0
        return keys.removeFirst()
    }

    public func waitForInput(timeout: Duration) async {
        waitsSinceLastKey += 1
        await wakeup.wait(timeout: timeout, ready: !keys.isEmpty || quitSignal != nil)
    }

    public func wake() { wakeup.wake() }

    public func invalidate() {
        invalidations += 1
    }
}
