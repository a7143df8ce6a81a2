import Foundation
import PajamaCoReading
import PajamaCore

/// The owner's side of the wiring: the reader's events (its own subscription) become the session's
/// location and cues, in the order they happened (one relay task, owned here, closed by `close()`).
@MainActor
final class OwnerLink {
    private let relay: Task<Void, Never>
    private let watcher: Task<Void, Never>

    /// `followersChanged` gets the followers' names each time they change.
    init(host: CoReadingHost, viewModel: ReaderViewModel, followersChanged: @escaping @MainActor ([String]) -> Void) {
        let events = viewModel.events()  // subscribed before the reader starts
        relay = Task {
            for await event in events {
                switch event {
                // Every page shown (a new page, a revealed line, back) is the owner's location; in an ink story
                // its beat goes first (how to make it, sent once per beat).
                case .stateChanged(.page(let page)):
                    if let sync = BeatSync(page.beat) { await host.publish(beat: sync) }
                    await host.publish(page.location)
                case .pageEntered(let location): await host.publish(location)
                // Cued, not played: a host without sound (muted, --no-sound) still sends its taps and choices.
                case .soundCued(let path, .tap): await host.cue(path, .tap)
                case .soundCued(let path, .choice(let index)): await host.cue(path, .choice(index))
                default: break
                }
            }
        }
        watcher = Task { @MainActor in
            for await names in host.participantChanges { followersChanged(names) }
        }
    }

    func close() {
        relay.cancel()
        watcher.cancel()
    }
}

/// The follower's side of the wiring: the session's events move the follower's own reader
/// (`navigateToLocation`, the same entry point as resuming) and play the owner's tap and choice sounds.
/// The reader's own `page_enter` sounds play as the follower enters each page.
@MainActor
final class FollowerLink {
    /// What the screen is told.
    enum Change {
        case followers([String])
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
    private var cuePlayer: Task<Void, Never>?
    /// The owner's beat of an ink story, as last told.
    private var beat: BeatSync?

    /// Follows `events` (the connection's stream, its welcome already taken).
    init(events: AsyncStream<FollowerEvent>.AsyncIterator, viewModel: ReaderViewModel, content: any StoryContent,
         sound: SoundClient?, storyId: String, changed: @escaping @MainActor (Change) -> Void) {
        listener = Task { @MainActor [weak self] in
            var reconnecting = false
            var events = events
            while let event = await events.next(isolation: #isolation) {
                guard let self else { return }
                switch event {
                case .welcome(let welcome, _):
                    guard welcome.story.id == storyId else {
                        changed(.failed("the host now reads another story (\(welcome.story.id)); reading on alone"))
                        return
                    }
                    if reconnecting { changed(.reconnected) }
                    reconnecting = false
                    changed(.followers(welcome.participants))
                    self.beat = welcome.beat
                    if let location = welcome.location { self.navigate(viewModel, to: location, changed: changed) }
                case .beat(let sync): self.beat = sync
                case .location(let location): self.navigate(viewModel, to: location, changed: changed)
                case .cue(let path, _): self.play(path, content: content, sound: sound)
                case .participants(let names): changed(.followers(names))
                case .reconnecting(let attempt, _):
                    reconnecting = true
                    changed(.reconnecting("connection to the host lost; reconnecting (attempt \(attempt))"))
                case .ended(let owner):
                    changed(.ended(owner: owner))
                    return
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

    private func play(_ path: AssetPath, content: any StoryContent, sound: SoundClient?) {
        guard let sound else { return }
        cuePlayer = Task {
            let loaded: LoadedSound?
            if let cached = await content.cachedSound(path) {
                loaded = cached
            } else {
                loaded = try? await content.loadSound(path)
            }
            if let loaded, !Task.isCancelled { _ = sound.play(loaded) }
        }
    }

    func close() {
        listener?.cancel()
        navigation?.cancel()
        cuePlayer?.cancel()
    }
}
