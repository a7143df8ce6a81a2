import PajamaModel
import PajamaReading

/// The owner's side of the wiring: the reader's events (its own subscription) become the session's location
/// and cues, in the order they happened (one relay task, owned here, closed by `close()`).
@MainActor
public final class OwnerLink {
    private let relay: Task<Void, Never>
    private let watcher: Task<Void, Never>
    private let votes: Task<Void, Never>

    /// `followersChanged` gets the followers' names each time they change; `votesChanged` their votes.
    public init(session: OwnerSession, viewModel: ReaderViewModel, followersChanged: @escaping @MainActor ([String]) -> Void,
                votesChanged: @escaping @MainActor (SessionVotes) -> Void = { _ in }) {
        let events = viewModel.events()  // subscribed before the reader starts
        relay = Task {
            for await event in events {
                switch event {
                // Every page shown (a new page, a revealed line, back) is the owner's location, once; in an ink
                // story its beat goes first (how to make it, sent once per beat).
                case .stateChanged(.page(let page)):
                    if let sync = BeatSync(page.beat) { await session.publishBeat(sync) }
                    await session.publishLocation(page.location, page.page.choices.count)
                // Cued, not played: a host without sound (muted, --no-sound) still sends its taps and choices.
                case .soundCued(let path, .tap): await session.cue(path, .tap)
                case .soundCued(let path, .choice(let index)): await session.cue(path, .choice(index))
                default: break
                }
            }
        }
        watcher = Task { @MainActor in
            for await names in session.participantChanges() { followersChanged(names) }
        }
        votes = Task { @MainActor in
            for await tally in session.voteChanges() { votesChanged(tally) }
        }
    }

    public func close() {
        relay.cancel()
        watcher.cancel()
        votes.cancel()
    }
}
