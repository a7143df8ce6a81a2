import PajamaCore

/// The host's session: a pure state synchroniser (no navigation logic). It keeps the shared state and
/// puts what changed into every follower's outbox, each message encoded once for all; it never waits for
/// a follower, nor for a socket.
///
/// Actions: `selectStory`, `updateLocation`, `cue`, `updateParticipants` (through `join` and `leave`),
/// `end`. The owner's reader navigates; the session only repeats where it is.
///
/// Joining costs the others nothing at once: with a `participantsDelay`, the participants change is sent to
/// everyone at most once per delay, however many join or leave meanwhile (a class joining together costs
/// one message a delay, not one per follower); the one joining gets it in its welcome. A follower that
/// said `countOnly` (every reader now) gets the number of followers, a few bytes, never the names: a storm
/// of n joining costs the followers O(n) bytes a delay, not n names to each of n (only followers of before
/// `countOnly` still get the list, encoded once a delay for all of them).
public actor CoReadingSession {
    /// A follower known to the session.
    public struct Follower: Sendable {
        public let id: Int
        public let name: String
        /// It gets the number of followers (`followers`), not their names (`participants`).
        public let countOnly: Bool
        public let outbox: FollowerOutbox
    }

    private enum State {
        /// `flush`: the participants list waiting to be sent (the task that sends it after the delay).
        case open(SessionState, followers: [Follower], flush: Task<Void, Never>?)
        case ended(SessionState)
    }

    private var state: State
    private var nextId = 0
    private let participantsDelay: Duration
    private let participantsInput: AsyncStream<[String]>.Continuation
    /// The followers' names each time they change (latest first if the reader is behind).
    public nonisolated let participantChanges: AsyncStream<[String]>

    /// `participantsDelay`: how long participant changes gather before they are sent (zero: at once).
    public init(owner: String, participantsDelay: Duration = .zero) {
        state = .open(SessionState(owner: owner), followers: [], flush: nil)
        self.participantsDelay = participantsDelay
        (participantChanges, participantsInput) = AsyncStream<[String]>.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// The shared state now.
    public var current: SessionState {
        switch state {
        case .open(let s, _, _), .ended(let s): s
        }
    }

    /// The followers now (tests and the host).
    public var followers: [Follower] {
        if case .open(_, let followers, _) = state { return followers }
        return []
    }

    // MARK: Actions

    /// The owner opened `story`: everyone gets a new welcome (its location is set by the owner's first page).
    public func selectStory(_ story: SessionStory) {
        guard case .open(var shared, let followers, let flush) = state else { return }
        if shared.story != story {
            shared.location = nil
            shared.beat = nil
        }
        shared.story = story
        state = .open(shared, followers: followers, flush: flush)
        if let welcome = shared.welcome { broadcast(welcome, to: followers) }
    }

    /// The owner is at `location` (fully resolved). Repeated locations are not sent again.
    public func updateLocation(_ location: StoryLocation) {
        guard case .open(var shared, let followers, let flush) = state, shared.location != location else { return }
        shared.location = location
        state = .open(shared, followers: followers, flush: flush)
        broadcast(.location(location), to: followers)
    }

    /// The owner entered a beat of an ink story. The same beat is not sent again.
    public func updateBeat(_ sync: BeatSync) {
        guard case .open(var shared, let followers, let flush) = state, shared.beat != sync else { return }
        shared.beat = sync
        state = .open(shared, followers: followers, flush: flush)
        broadcast(.beat(sync), to: followers)
    }

    /// The owner triggered a sound: followers play the same.
    public func cue(_ path: AssetPath, _ cue: SoundCue) {
        guard case .open(_, let followers, _) = state else { return }
        broadcast(.cue(path, cue), to: followers)
    }

    /// A follower joins: its outbox starts with the welcome (the current state at once, itself among the
    /// participants), and everyone gets the new participants (after the delay). Nil once the session ended,
    /// or before a story is selected.
    /// `countOnly`: the follower gets the number of followers, not their names (its `hello` said so).
    public func join(name: String, countOnly: Bool = false) -> Follower? {
        guard case .open(var shared, var followers, let flush) = state, shared.story != nil else { return nil }
        let follower = Follower(id: nextId, name: name, countOnly: countOnly, outbox: FollowerOutbox())
        nextId += 1
        followers.append(follower)
        shared.participants.append(name)
        shared.followers = shared.participants.count
        state = .open(shared, followers: followers, flush: flush)
        if let welcome = shared.welcome { follower.outbox.put(.welcome(countOnly ? welcome.countOnly : welcome)) }
        participantsChanged(joined: follower.id)
        return follower
    }

    /// A follower left (its connection closed).
    public func leave(_ id: Int) {
        guard case .open(var shared, var followers, let flush) = state, let index = followers.firstIndex(where: { $0.id == id }) else { return }
        followers.remove(at: index).outbox.close()
        shared.participants = followers.map(\.name)
        shared.followers = shared.participants.count
        state = .open(shared, followers: followers, flush: flush)
        participantsChanged()
    }

    /// The participants changed: sent at once without a delay (to all but `joined`, whose welcome has
    /// them), else once the delay passed.
    private func participantsChanged(joined: Int? = nil) {
        guard case .open(let shared, let followers, let flush) = state else { return }
        guard participantsDelay > .zero else { return sendParticipants(except: joined) }
        guard flush == nil else { return }
        let delay = participantsDelay
        let task = Task {
            try? await Task.sleep(for: delay)
            self.sendParticipants()
        }
        state = .open(shared, followers: followers, flush: task)
    }

    /// The participants now, to everyone (and to the owner's status line): their number to the followers
    /// that said `countOnly`, the names (encoded only if one did not) to the others.
    private func sendParticipants(except joined: Int? = nil) {
        guard case .open(let shared, let followers, _) = state else { return }
        state = .open(shared, followers: followers, flush: nil)
        participantsInput.yield(shared.participants)
        let others = joined.map { id in followers.filter { $0.id != id } } ?? followers
        broadcast(.followers(shared.followers), to: others.filter(\.countOnly))
        broadcast(.participants(shared.participants), to: others.filter { !$0.countOnly })
    }

    /// The owner ends the session: every follower gets `end(name)` as its last message.
    public func end() {
        guard case .open(var shared, let followers, let flush) = state else { return }
        flush?.cancel()
        shared.endedBy = shared.owner
        state = .ended(shared)
        broadcast(.end(name: shared.owner), to: followers)
        participantsInput.finish()
    }

    /// A welcome to every follower: the count-only one to those that asked for it, each encoded once.
    private func broadcast(_ welcome: SessionWelcome, to followers: [Follower]) {
        broadcast(.welcome(welcome.countOnly), to: followers.filter(\.countOnly))
        broadcast(.welcome(welcome), to: followers.filter { !$0.countOnly })
    }

    /// One message to every follower, encoded once (and not at all for none).
    private func broadcast(_ message: SessionMessage, to followers: [Follower]) {
        guard !followers.isEmpty else { return }
        let outgoing = FollowerOutbox.Outgoing(message, encodeNow: true)
        for follower in followers { follower.outbox.put(outgoing) }
    }
}
