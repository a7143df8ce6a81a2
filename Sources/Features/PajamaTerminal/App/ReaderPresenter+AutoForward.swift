import PajamaReading

/// Auto-forward (`a`): the reader's next line or page after a pause that grows with the text just shown.
/// The pause runs on the presenter's clock (the instants its events come with: `deadline`, then a `.tick`),
/// so tests drive it with a virtual one.
enum AutoForward: Sendable, Equatable {
    case off
    /// On: the page (or line) shown at `since` is turned once its pause has passed.
    case waiting(since: ContinuousClock.Instant)
    /// On: the move it asked for is under way (or the page shown is not one it turns: a choice, the end).
    case moving
}

extension ReaderPresenter {
    /// The paces `[` and `]` step through: how much faster than the base pause (1 s, and 40 ms a character).
    static let autoForwardPaces: [Double] = [0.5, 0.7, 1, 1.4, 2]
    static let defaultAutoForwardPace = 2

    /// The pause before auto-forward turns `page` at `pace` (an index into `autoForwardPaces`): 1 s and 40 ms
    /// for each character of the text last shown (the newest line, a title and subtitle), divided by the pace.
    static func autoForwardPause(for page: PageState, pace: Int) -> Duration {
        let shown: String = switch page.page.kind {
        case .text(let lines): lines.indices.contains(page.revealedLines - 1) ? lines[page.revealedLines - 1] : ""
        case .title(let title, let subtitle): title + " " + (subtitle ?? "")
        case .choice, .question: ""
        }
        let seconds = (1 + 0.04 * Double(shown.count)) / autoForwardPaces[pace]
        return .milliseconds(Int((seconds * 1000).rounded()))
    }

    /// When auto-forward turns the page shown, if it is waiting to: a page without choices, no overlay open.
    var autoForwardDeadline: Instant? {
        guard case .waiting(let since) = autoForward, mode == .reading, case .page(let page) = reader, page.page.choices.isEmpty
        else { return nil }
        return since + Self.autoForwardPause(for: page, pace: autoForwardPace)
    }

    /// A tick at `now`: the move, once the pause is over.
    mutating func autoForwardTick(at now: Instant) -> [ReaderEffect] {
        guard let due = autoForwardDeadline, now >= due else { return [] }
        // A page longer than the screen is scrolled on first, as a tap does; the pause starts again.
        if scrollTowardTheEnd() {
            autoForward = .waiting(since: now)
            needsRedraw = true
            return []
        }
        autoForward = .moving
        return [.move(.advance)]
    }

    /// A new state shown at `now`: the pause starts again (a page, or a line of it); elsewhere it waits.
    mutating func autoForwardFollow(_ state: ReaderState, at now: Instant) {
        guard autoForward != .off else { return }
        if case .finished = state {
            // The end: nothing more to turn. Auto-forward is off, and the status line no longer says it is on.
            autoForward = .off
            if notice?.hasPrefix("auto-forward") == true { notice = nil }
            return
        }
        if case .page = state { autoForward = .waiting(since: now) } else { autoForward = .moving }
    }

    /// `a`, `[`, `]` (which never stop it); any other key stops auto-forward first.
    mutating func autoForwardKey(_ action: ReaderAction?, at now: Instant) -> [ReaderEffect] {
        switch action {
        case .autoForward:
            guard autoForward == .off else {
                autoForward = .off
                notice = "auto-forward off"
                return []
            }
            guard mayNavigate() else { return [] }
            guard timedText else {
                notice = "no auto-forward: timed text is off (w turns it on)"
                return []
            }
            autoForward = .waiting(since: now)
            notice = "auto-forward on · pace \(autoForwardPace + 1) of \(Self.autoForwardPaces.count) ([ ] change it)"
        case .slower, .faster:
            let step = action == .faster ? 1 : -1
            autoForwardPace = max(0, min(Self.autoForwardPaces.count - 1, autoForwardPace + step))
            notice = "auto-forward pace \(autoForwardPace + 1) of \(Self.autoForwardPaces.count)"
        default:
            if autoForward != .off {
                autoForward = .off
                notice = "auto-forward off"
            }
        }
        return []
    }
}
