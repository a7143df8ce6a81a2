import PajamaCore

/// The host's session: a pure state synchroniser (no navigation logic). It keeps the shared state and
/// puts what changed into every follower's outbox; it never waits for a follower.
///
/// Actions: `selectStory`, `updateLocation`, `cue`, `updateParticipants` (through `join` and `leave`),
/// `end`. The owner's reader navigates; the session only repeats where it is.
public actor CoReadingSession {
    /// A follower known to the session.
    public struct Follower: Sendable {
        public let id: Int
        public let name: String
        public let outbox: FollowerOutbox
    }

    private enum State {
        case open(SessionState, followers: [Follower])
        case ended(SessionState)
    }

    private var state: State
    private var nextId = 0
    private let participantsInput: AsyncStream<[String]>.Continuation
    /// The followers' names each time they change (latest first if the reader is behind).
    public nonisolated let participantChanges: AsyncStream<[String]>

    public init(owner: String) {
        state = .open(SessionState(owner: owner), followers: [])
        (participantChanges, participantsInput) = AsyncStream<[String]>.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// The shared state now.
    public var current: SessionState {
        switch state {
        case .open(let s, _), .ended(let s): s
        }
    }

    /// The followers now (tests and the host).
    public var followers: [Follower] {
        if case .open(_, let followers) = state { return followers }
        return []
    }

    // MARK: Actions

    /// The owner opened `story`: everyone gets a new welcome (its location is set by the owner's first page).
    public func selectStory(_ story: SessionStory) {
        guard case .open(var shared, let followers) = state else { return }
        if shared.story != story {
            shared.location = nil
            shared.beat = nil
        }
        shared.story = story
        state = .open(shared, followers: followers)
        if let welcome = shared.welcome { broadcast(.welcome(welcome), to: followers) }
    }

    /// The owner is at `location` (fully resolved). Repeated locations are not sent again.
    public func updateLocation(_ location: StoryLocation) {
        guard case .open(var shared, let followers) = state, shared.location != location else { return }
        shared.location = location
        state = .open(shared, followers: followers)
        broadcast(.location(location), to: followers)
    }

    /// The owner entered a beat of an ink story. The same beat is not sent again.
    public func updateBeat(_ sync: BeatSync) {
        guard case .open(var shared, let followers) = state, shared.beat != sync else { return }
        shared.beat = sync
        state = .open(shared, followers: followers)
        broadcast(.beat(sync), to: followers)
    }

    /// The owner triggered a sound: followers play the same.
    public func cue(_ path: AssetPath, _ cue: SoundCue) {
        guard case .open(_, let followers) = state else { return }
        broadcast(.cue(path, cue), to: followers)
    }

    /// A follower joins: its outbox starts with the welcome (the current state at once), and everyone
    /// gets the new participants. Nil once the session ended, or before a story is selected.
    public func join(name: String) -> Follower? {
        guard case .open(let shared, var followers) = state, shared.story != nil else { return nil }
        let follower = Follower(id: nextId, name: name, outbox: FollowerOutbox())
        nextId += 1
        followers.append(follower)
        state = .open(shared, followers: followers)
        updateParticipants()
        if let welcome = current.welcome { follower.outbox.put(.welcome(welcome)) }
        return follower
    }

    /// A follower left (its connection closed).
    public func leave(_ id: Int) {
        guard case .open(let shared, var followers) = state, let index = followers.firstIndex(where: { $0.id == id }) else { return }
        followers.remove(at: index).outbox.close()
        state = .open(shared, followers: followers)
        updateParticipants()
    }

    /// The participants after a join or a leave, to everyone.
    private func updateParticipants() {
        guard case .open(var shared, let followers) = state else { return }
        shared.participants = followers.map(\.name)
        state = .open(shared, followers: followers)
        participantsInput.yield(shared.participants)
        broadcast(.participants(shared.participants), to: followers)
    }

    /// The owner ends the session: every follower gets `end(name)` as its last message.
    public func end() {
        guard case .open(var shared, let followers) = state else { return }
        shared.endedBy = shared.owner
        state = .ended(shared)
        broadcast(.end(name: shared.owner), to: followers)
        participantsInput.finish()
    }

    private func broadcast(_ message: SessionMessage, to followers: [Follower]) {
        for follower in followers { follower.outbox.put(message) }
    }
}
