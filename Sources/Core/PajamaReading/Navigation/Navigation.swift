import PajamaLoading
import PajamaModel

/// Where the reader is: one `private enum Phase`, changed only by the transitions below, each of which
/// checks the phase it starts from. `ReaderViewModel` holds one and publishes a change of its `state`.
///
/// A move under way is an `Attempt` held by the phase, so a load that finishes after the reader moved
/// elsewhere (its attempt is no longer the phase's) never changes what is shown.
@MainActor
struct Navigation {
    private enum Phase {
        /// Nothing read yet.
        case idle
        /// A move under way; `shown` is what the reader sees meanwhile (the state the move left, until it
        /// has to wait: then `.loading`).
        case entering(Attempt, shown: ReaderState)
        /// A page shown, and the visit that owns its tasks (sounds and pictures loading for it).
        case page(PageState, PageVisit)
        /// A move failed; the attempt is what retry and skip try again and what back knows about.
        case failed(ReaderFailure, Attempt)
        /// Past the last page of an ending: the end screen (the visit goes on: back shows the page again).
        case finished(PageState, EndSummary, PageVisit)
        /// `close()` was called: no move commits and nothing new starts; `shown` stays on screen.
        case closed(ReaderState)
    }

    private var phase = Phase.idle

    /// What the reader shows.
    var state: ReaderState {
        switch phase {
        case .idle: .starting
        case .entering(_, let shown), .closed(let shown): shown
        case .page(let page, _): .page(page)
        case .failed(let failure, _): .failed(failure)
        case .finished(let page, let summary, _): .finished(page, summary)
        }
    }

    /// The page visit whose tasks are alive: the page shown, or the one a move under way (or failed) left.
    var currentVisit: PageVisit? {
        switch phase {
        case .idle, .closed: nil
        case .page(_, let visit), .finished(_, _, let visit): visit
        case .entering(let attempt, _), .failed(_, let attempt): attempt.leaving
        }
    }

    /// The page shown and its visit, when a page (not the end screen) is up.
    var page: (PageState, PageVisit)? {
        if case .page(let page, let visit) = phase { return (page, visit) }
        return nil
    }

    /// The page shown, on a page or under the end screen.
    var shownPage: PageState? {
        switch phase {
        case .page(let page, _), .finished(let page, _, _): page
        default: nil
        }
    }

    /// The failed move, when a failure is shown.
    var failure: (ReaderFailure, Attempt)? {
        if case .failed(let failure, let attempt) = phase { return (failure, attempt) }
        return nil
    }

    /// Whether a page, the end screen or a failure is shown (no move under way, not idle, not closed):
    /// where back, a bookmark and the backlog can lead from.
    var isSettled: Bool {
        switch phase {
        case .page, .finished, .failed: true
        case .idle, .entering, .closed: false
        }
    }

    var isClosed: Bool {
        if case .closed = phase { return true }
        return false
    }

    /// Whether `attempt` is still the move under way.
    func isCurrent(_ attempt: Attempt) -> Bool {
        if case .entering(let current, _) = phase { return current === attempt }
        return false
    }

    // MARK: Transitions

    /// Starts an attempt (nil once closed): the phase becomes `.entering`, still showing what it showed.
    mutating func begin(_ entry: Entry) -> Attempt? {
        let leaving: PageVisit?
        switch phase {
        case .closed: return nil
        case .idle: leaving = nil
        case .entering(let attempt, _), .failed(_, let attempt): leaving = attempt.leaving
        case .page(_, let visit), .finished(_, _, let visit): leaving = visit
        }
        let attempt = Attempt(entry, leaving: leaving)
        phase = .entering(attempt, shown: state)
        return attempt
    }

    /// The attempt waits: "Loading" (after the UI's grace period), naming what it waits for.
    mutating func wait(_ attempt: Attempt, at location: StoryLocation, for subjects: [LoadSubject]) {
        guard isCurrent(attempt) else { return }
        phase = .entering(attempt, shown: .loading(location, waitingFor: subjects))
    }

    /// The attempt failed: retry, skip and back start from here.
    mutating func fail(_ attempt: Attempt, _ failure: ReaderFailure) {
        guard isCurrent(attempt) else { return }
        phase = .failed(failure, attempt)
    }

    /// The attempt commits: `page` is shown on a new visit, and the visit the move left ends (its pending
    /// sounds and pictures are cancelled).
    mutating func arrive(_ attempt: Attempt, at page: PageState) -> PageVisit? {
        guard isCurrent(attempt) else { return nil }
        let visit = PageVisit()
        attempt.leaving?.end()
        phase = .page(page, visit)
        return visit
    }

    /// The page shown changed on the same visit (a line revealed).
    mutating func update(_ page: PageState) {
        guard case .page(_, let visit) = phase else { return }
        phase = .page(page, visit)
    }

    /// Past the last page of an ending, on the page's visit: the end screen.
    mutating func finish(_ page: PageState, _ summary: EndSummary, on visit: PageVisit) {
        guard case .page(_, let shown) = phase, shown === visit else { return }
        phase = .finished(page, summary, visit)
    }

    /// New figures for the end screen, if it is still the one of `visit`.
    mutating func update(_ summary: EndSummary, on visit: PageVisit) {
        guard case .finished(let page, _, let shown) = phase, shown === visit else { return }
        phase = .finished(page, summary, shown)
    }

    /// From the end screen, back to its page (same visit); false when the end screen is not shown.
    mutating func leaveEndScreen() -> Bool {
        guard case .finished(let page, _, let visit) = phase else { return false }
        phase = .page(page, visit)
        return true
    }

    /// Closes: the visit ends, nothing commits any more and what is shown stays. False when already closed.
    mutating func close() -> Bool {
        if case .closed = phase { return false }
        currentVisit?.end()
        phase = .closed(state)
        return true
    }
}
