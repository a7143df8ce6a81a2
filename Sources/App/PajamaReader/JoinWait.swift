import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaCoReading
import PajamaTerminal

/// `pajama join` until the host lets it in: the connection's first event that is not a reconnection (the
/// welcome, or why not), awaited on the reader's own display, which says what it waits for ("waiting for the
/// host at URL to answer (12 s)", or the reconnection under way), and where `q`, Esc or a quit signal stop
/// the wait at once (issue 42: a join to a host that never answered showed nothing and ignored `q`).
@MainActor
final class JoinWait {
    /// How the wait ended.
    enum End {
        /// The connection's first event (nil: it ended without one); `iterator` goes on from there.
        case event(FollowerEvent?)
        /// The reader stopped waiting: `q` (nil), or this quit signal.
        case stopped(signal: Int32?)
    }

    private enum State {
        case idle(AsyncStream<FollowerEvent>.AsyncIterator)
        /// The events are being read (`task`); `stage` says what is awaited now.
        case pulling(Task<Void, Never>, stage: String)
        case arrived(FollowerEvent?, AsyncStream<FollowerEvent>.AsyncIterator)
        case stopped
    }

    let url: URL
    private var state: State
    private let started = ContinuousClock.now

    init(events: AsyncStream<FollowerEvent>, url: URL) {
        self.url = url
        state = .idle(events.makeAsyncIterator())
    }

    /// The events after the first (for the follower's reading), once it has arrived.
    var iterator: AsyncStream<FollowerEvent>.AsyncIterator? {
        if case .arrived(_, let iterator) = state { return iterator }
        return nil
    }

    /// What the wait says now.
    var stage: String {
        let seconds = Int((ContinuousClock.now - started).components.seconds)
        if case .pulling(_, let stage) = state, !stage.isEmpty { return stage }
        return "waiting for the host at \(url.absoluteString) to answer" + (seconds >= 1 ? " (\(seconds) s)" : "")
    }

    /// Starts reading the events; `wake` is called at each change.
    private func pull(wake: @escaping @MainActor () -> Void) {
        guard case .idle(var iterator) = state else { return }
        let task = Task { @MainActor [weak self] in
            while true {
                let event = await iterator.next(isolation: #isolation)
                guard let self, case .pulling(let task, _) = self.state else { return }
                if case .reconnecting(let attempt, let reason)? = event {
                    self.state = .pulling(task, stage: "the host at \(self.url.absoluteString) closed the connection (\(reason)); trying again (attempt \(attempt))")
                    wake()
                    continue
                }
                self.state = .arrived(event, iterator)
                wake()
                return
            }
        }
        state = .pulling(task, stage: "")
    }

    private func stop() -> End {
        if case .pulling(let task, _) = state { task.cancel() }
        state = .stopped
        return .stopped(signal: nil)
    }

    private var arrived: FollowerEvent?? {
        if case .arrived(let event, _) = state { return .some(event) }
        return nil
    }

    /// Waits on the full screen (or a headless terminal), drawing what it waits for.
    func first(on screen: any ReaderTerminal) async -> End {
        pull { screen.wake() }
        while true {
            if let arrived { return .event(arrived) }
            if let signal = screen.quitSignal {
                _ = stop()
                return .stopped(signal: signal)
            }
            while let key = screen.readKey() {
                switch key {
                case .character("q"), .escape: return stop()
                case .resize: screen.invalidate()
                default: break
                }
            }
            screen.draw(render(width: screen.width, height: screen.height))
            await screen.waitForInput(timeout: .milliseconds(500))
        }
    }

    /// Waits in plain mode: says once what it waits for (on standard output, as plain mode says everything);
    /// a quit signal (Ctrl-C) stops it.
    func first(signals: QuitSignals, write: (String) -> Void) async -> End {
        let (wakes, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        signals.onSignal = { wake.yield() }
        defer { signals.onSignal = nil }
        write("Joining \(url.absoluteString): \(stage) (Ctrl-C stops).\n")
        pull { wake.yield() }
        var said = ""
        for await _ in wakes {
            if let arrived { return .event(arrived) }
            if let signal = signals.received {
                _ = stop()
                return .stopped(signal: signal)
            }
            if case .pulling(_, let stage) = state, !stage.isEmpty, stage != said {
                write(Self.sentence(stage) + ".\n")
                said = stage
            }
        }
        return stop()
    }

    /// `stage` as a sentence begins: its first letter a capital.
    private static func sentence(_ stage: String) -> String { stage.prefix(1).uppercased() + stage.dropFirst() }

    /// The waiting screen: the URL on the status line, what is awaited, how to stop.
    func render(width: Int, height: Int) -> CellGrid {
        var grid = CellGrid(width: width, height: height)
        guard width >= PageRenderer.minimumSize.width, height >= PageRenderer.minimumSize.height else {
            grid.put("terminal too small", x: 0, y: 0, style: Style(.error))
            return grid
        }
        grid.fill(y: 0, style: Style(.status))
        grid.put(" Pajama — joining \(url.absoluteString)", x: 0, y: 0, style: Style(.status), maxWidth: width)
        let text = Self.sentence(stage) + "…"
        for (row, line) in TextWrapper.wrap(DisplayWidth.sanitize(text), width: width - 4).prefix(max(1, height - 4)).enumerated() {
            grid.put(line, x: 2, y: 2 + row, style: Style(.text), maxWidth: width - 4)
        }
        grid.fill(y: height - 1, style: Style(.status))
        grid.put(" q quit", x: 0, y: height - 1, style: Style(.status))
        return grid
    }
}
