import Logging
import PajamaModel
import PajamaReading
import PajamaStorage

/// The follower's side of the wiring: the session's events (the connection's stream, `FollowerConnection`, or a
/// test's) move the follower's own reader (`follow`, the same entry point as resuming) and play the owner's tap
/// and choice sounds on the follower's page visit (`ReaderViewModel.playCued`). The reader's own `page_enter`
/// sounds play as the follower enters each page.
@MainActor
public final class FollowerLink {
    /// What the screen is told.
    public enum Change: Sendable, Equatable {
        /// How many follow.
        case followers(Int)
        /// The followers' votes on the owner's page (a session that takes votes).
        case votes(SessionVotes)
        case reconnecting(String)
        /// Something the follower should know (out of step with the owner's ink story).
        case notice(String)
        case reconnected
        case ended(owner: String)
        case failed(String)
    }

    private var listener: Task<Void, Never>?
    /// The latest move (a newer one supersedes it inside the view model; it then ends by itself).
    private var navigation: Task<Void, Never>?
    /// The owner's beat of an ink story, as last told.
    private var beat: BeatSync?

    /// Follows `events` (the connection's stream, its welcome already taken) for the story `storyId`.
    public init(events: AsyncStream<FollowerEvent>.AsyncIterator, viewModel: ReaderViewModel, storyId: String,
                changed: @escaping @MainActor (Change) -> Void) {
        listener = Task { @MainActor [weak self] in
            var reconnecting = false
            var ended = false
            var events = events
            while let event = await events.next(isolation: #isolation) {
                guard let self else { return }
                // After the end the stream is kept (not dropped) until the host stops serving the story or
                // the follower quits: dropping it would close the connection, and the host counts it.
                if ended { continue }
                switch event {
                case .welcome(let welcome, _):
                    guard welcome.story.id == storyId else {
                        changed(.failed("the host now reads another story (\(welcome.story.id)); reading on alone"))
                        return
                    }
                    if reconnecting { changed(.reconnected) }
                    reconnecting = false
                    changed(.followers(welcome.followers))
                    if let votes = welcome.votes { changed(.votes(votes)) }
                    self.beat = welcome.beat
                    if let location = welcome.location { self.navigate(viewModel, to: location, changed: changed) }
                case .beat(let sync): self.beat = sync
                case .location(let location): self.navigate(viewModel, to: location, changed: changed)
                case .cue(let path, let cue): viewModel.playCued(path, cue: cue)
                case .followers(let count): changed(.followers(count))
                case .votes(let votes): changed(.votes(votes))
                case .reconnecting(let attempt, _):
                    reconnecting = true
                    changed(.reconnecting("connection to the host lost; reconnecting (attempt \(attempt))"))
                case .ended(let owner):
                    changed(.ended(owner: owner))
                    ended = true
                case .failed(let error):
                    changed(.failed("\(error); reading on alone"))
                    return
                }
            }
        }
    }

    private func navigate(_ viewModel: ReaderViewModel, to location: StoryLocation, changed: @escaping @MainActor (Change) -> Void) {
        guard viewModel.location != location else { return }
        let sync = beat
        navigation = Task { @MainActor in
            switch await viewModel.follow(location, sync: sync) {
            case .inStep: break
            case .resynced: PajamaLog.coreading.warning("out of step with the owner's ink state at \(location); made again from the owner's")
            case .outOfStep: changed(.notice("out of step with the owner's story here (its state is too large to send)"))
            }
        }
    }

    public func close() {
        listener?.cancel()
        navigation?.cancel()
    }
}
