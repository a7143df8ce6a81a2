import PajamaModel
import PajamaReading

/// The host's session: a pure state synchroniser (no navigation logic). It keeps the shared state and
/// puts what changed into every follower's outbox, each message encoded once for all; it never waits for
/// a follower, nor for a socket.
///
/// Actions: `selectStory`, `updateLocation`, `cue`, `updateParticipants` (through `join` and `leave`),
/// `vote` (in a session that takes votes: `VoteTally`), `end`. The owner's reader navigates; the session
/// only repeats where it is.
///
/// Joining costs the others nothing at once: with a `participantsDelay`, the participants change is sent to
/// the owner at most once per delay, and to the followers at most once per `followersDelay` (the host's is
/// a second: no follower shows it, and each telling is a message to every follower), however many join or
/// leave meanwhile (a class joining together costs one message a delay, not one per follower); the one
/// joining gets it in its welcome. A join or a leave changes the state in place (O(1) and O(n), not a copy
/// of every follower each time). A follower that
/// said `countOnly` (every reader now) gets the number of followers, a few bytes, never the names: a storm
/// of n joining costs the followers O(n) bytes a delay, not n names to each of n (only followers of before
/// `countOnly` still get the list, encoded once a delay for all of them).
///
/// The owner's turn never queues behind a crowd joining: joins wait off the actor (`WaitingJoins`) and are
/// admitted `joinBatch` at a time, each batch one job on the actor, so an owner's action issued during a
/// storm of 2,000 hellos waits for at most one batch here, not for every hello before it.
public actor CoReadingSession {
    /// A follower known to the session.
    public struct Follower: Sendable {
        public let id: Int
        public let name: String
        /// It gets the number of followers (`followers`), not their names (`participants`).
        public let countOnly: Bool
        public let outbox: FollowerOutbox
    }

    /// The open session: the shared state, the followers (in the order they joined, as
    /// `shared.participants`), the flushes waiting to tell the owner and the followers of a change.
    private struct Open {
        var shared: SessionState
        var followers: [Follower] = []
        var ownerFlush: Task<Void, Never>?
        var followersFlush: Task<Void, Never>?
        /// The followers' votes, in a session that takes them (`shared.votes` is what it tells).
        var tally: VoteTally?
        /// The votes' telling to the followers, waiting its delay.
        var votesFlush: Task<Void, Never>?
        /// The voters of followers at relay nodes (`relayVote`), by their voter id, with the (negative) ids
        /// their votes are counted under, oldest first.
        var relayVoters: [String: Int] = [:]
        var relayOrder: [String] = []
    }

    private enum State {
        case open(Open)
        /// Only while `changeOpen` runs (synchronously, on the actor): the open state is out of the enum so
        /// its arrays have one owner and grow in place (a copy each join made a storm O(n²)).
        case changing
        case ended(SessionState)
    }

    /// Followers admitted per job on the actor: a batch of hellos costs well under a millisecond, and an
    /// owner's turn issued meanwhile goes before the next batch.
    static let joinBatch = 32

    private var state: State
    private var nextId = 0
    private nonisolated let waiting = WaitingJoins()
    /// Awaited before each batch of joins is admitted (tests hold the joins with it).
    private let admissionGate: (@Sendable () async -> Void)?
    private let participantsDelay: Duration
    private let followersDelay: Duration
    private let participantsInput: AsyncStream<[String]>.Continuation
    /// The followers' names each time they change (latest first if the reader is behind).
    public nonisolated let participantChanges: AsyncStream<[String]>
    /// How long votes gather before the followers are told the count (the owner is told each at once).
    private let votesDelay: Duration
    private let votesInput: AsyncStream<SessionVotes>.Continuation
    /// The votes on the owner's page each time they change (only the newest if the reader is behind);
    /// nothing in a session that takes none.
    public nonisolated let voteChanges: AsyncStream<SessionVotes>
    /// Whether the session takes votes.
    public nonisolated let takesVotes: Bool
    /// Told the whole state each time the followers are told the votes (a relay node's newest message must
    /// be the whole state: the owner's host publishes it again).
    private let votesTold: (@Sendable (SessionWelcome) -> Void)?
    private var nextRelayVoter = -1

    /// How long votes gather before the followers are told, by default: a few tellings a second, each a
    /// message to every follower, however many vote meanwhile.
    public static let defaultVotesDelay: Duration = .milliseconds(250)

    /// `participantsDelay`: how long participant changes gather before the owner is told (zero: at once);
    /// `followersDelay`: before the followers are (nil: the same). No follower shows the count, so a host
    /// tells them seldom: each telling is a message to every follower, and a storm changes the count
    /// all the time.
    /// `votes`: the session takes the followers' votes on the owner's choices (`pajama host --votes`), told
    /// to the followers at most once per `votesDelay`.
    /// `votesTold`: given the whole state each time the followers are told the votes.
    public init(owner: String, participantsDelay: Duration = .zero, followersDelay: Duration? = nil, votes: Bool = false,
                votesDelay: Duration = CoReadingSession.defaultVotesDelay, votesTold: (@Sendable (SessionWelcome) -> Void)? = nil) {
        self.init(owner: owner, participantsDelay: participantsDelay, followersDelay: followersDelay, votes: votes, votesDelay: votesDelay,
                  votesTold: votesTold, admissionGate: nil)
    }

    /// `admissionGate`: awaited before each batch of joins is admitted (tests hold the joins with it).
    init(owner: String, participantsDelay: Duration = .zero, followersDelay: Duration? = nil, votes: Bool = false,
         votesDelay: Duration = CoReadingSession.defaultVotesDelay, votesTold: (@Sendable (SessionWelcome) -> Void)? = nil,
         admissionGate: (@Sendable () async -> Void)?) {
        self.admissionGate = admissionGate
        self.votesTold = votesTold
        var open = Open(shared: SessionState(owner: owner))
        if votes {
            open.tally = VoteTally()
            open.shared.votes = SessionVotes(location: nil, counts: [])
        }
        state = .open(open)
        self.participantsDelay = participantsDelay
        self.followersDelay = followersDelay ?? participantsDelay
        self.votesDelay = votesDelay
        takesVotes = votes
        (participantChanges, participantsInput) = AsyncStream<[String]>.makeStream(bufferingPolicy: .bufferingNewest(1))
        (voteChanges, votesInput) = AsyncStream<SessionVotes>.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// The shared state now.
    public var current: SessionState {
        switch state {
        case .open(let open): open.shared
        case .ended(let s): s
        case .changing: preconditionFailure("the session's state is read while it changes")
        }
    }

    /// The followers now (tests and the host).
    public var followers: [Follower] {
        if case .open(let open) = state { return open.followers }
        return []
    }

    /// Changes the open session in place (nil once it ended).
    private func changeOpen<Result>(_ change: (inout Open) -> Result?) -> Result? {
        guard case .open(var open) = state else { return nil }
        state = .changing
        defer { state = .open(open) }
        return change(&open)
    }

    // MARK: Actions

    /// The owner opened `story`: everyone gets a new welcome (its location is set by the owner's first page).
    public func selectStory(_ story: SessionStory) {
        changeOpen { open in
            if open.shared.story != story {
                open.shared.location = nil
                open.shared.beat = nil
            }
            open.shared.story = story
            if let welcome = open.shared.welcome { broadcast(welcome, to: open.followers) }
            return ()
        }
    }

    /// The owner is at `location` (fully resolved), a page of `choices` choices. Repeated locations are not
    /// sent again. In a session that takes votes, a new page starts a new count (the followers know it from
    /// the location; the owner is told).
    public func updateLocation(_ location: StoryLocation, choices: Int = 0) {
        changeOpen { (open: inout Open) -> Void? in
            guard open.shared.location != location else { return nil }
            open.shared.location = location
            if open.tally?.moved(to: location, choices: choices) == true {
                open.votesFlush?.cancel()
                open.votesFlush = nil
                votesChanged(&open, tellFollowers: false)
            }
            broadcast(.location(location), to: open.followers)
            return ()
        }
    }

    /// Follower `id` votes for `choice` of the owner's page at `location` (nil: takes its vote back). A vote
    /// for another page, a choice it has not, or in a session that takes none changes nothing.
    public func vote(_ id: Int, at location: StoryLocation, choice: Int?) {
        changeOpen { (open: inout Open) -> Void? in
            guard open.tally?.cast(id, at: location, choice: choice) == true else { return nil }
            votesChanged(&open)
            return ()
        }
    }

    /// A follower at a relay node, known by its `voter` id (the node carries no socket of it to this host),
    /// votes for `choice` of the owner's page at `location`. At most `cap` such voters count (the node's
    /// followers): past it, the longest known gives up its vote, so a token holder making up voters moves
    /// no more votes than there are followers.
    public func relayVote(_ voter: String, at location: StoryLocation, choice: Int?, cap: Int) {
        changeOpen { (open: inout Open) -> Void? in
            guard open.tally != nil else { return nil }
            var changed = false
            let id: Int
            if let known = open.relayVoters[voter] {
                id = known
            } else {
                while open.relayOrder.count >= max(1, cap), !open.relayOrder.isEmpty {
                    let oldest = open.relayOrder.removeFirst()
                    if let gone = open.relayVoters.removeValue(forKey: oldest), open.tally?.remove(gone) == true { changed = true }
                }
                id = nextRelayVoter
                nextRelayVoter -= 1
                open.relayVoters[voter] = id
                open.relayOrder.append(voter)
            }
            if open.tally?.cast(id, at: location, choice: choice) == true { changed = true }
            guard changed else { return nil }
            votesChanged(&open)
            return ()
        }
    }

    /// The votes changed: the owner is told at once, the followers after `votesDelay` (one telling however
    /// many vote meanwhile), unless `tellFollowers` is false (a new page: they know from its location).
    private func votesChanged(_ open: inout Open, tellFollowers: Bool = true) {
        guard let tally = open.tally else { return }
        open.shared.votes = tally.votes
        votesInput.yield(tally.votes)
        guard tellFollowers, open.votesFlush == nil else { return }
        let delay = votesDelay
        open.votesFlush = Task {
            // Cancelled (the owner moved on): the count it was to tell is gone.
            guard (try? await Task.sleep(for: delay)) != nil else { return }
            self.tellVotes()
        }
    }

    /// The votes now, to every follower (after the delay).
    private func tellVotes() {
        changeOpen { open in
            open.votesFlush = nil
            if let votes = open.shared.votes { broadcast(.votes(votes), to: open.followers) }
            if let welcome = open.shared.welcome { votesTold?(welcome) }
            return ()
        }
    }

    /// The owner entered a beat of an ink story. The same beat is not sent again.
    public func updateBeat(_ sync: BeatSync) {
        changeOpen { (open: inout Open) -> Void? in
            guard open.shared.beat != sync else { return nil }
            open.shared.beat = sync
            broadcast(.beat(sync), to: open.followers)
            return ()
        }
    }

    /// The owner triggered a sound: followers play the same.
    public func cue(_ path: AssetPath, _ cue: SoundCue) {
        guard case .open(let open) = state else { return }
        broadcast(.cue(path, cue), to: open.followers)
    }

    /// A follower joins: its outbox starts with the welcome (the state once its batch joined, itself among
    /// the participants), and everyone gets the new participants (after the delay). Nil once the session ended,
    /// or before a story is selected.
    /// `countOnly`: the follower gets the number of followers, not their names (its `hello` said so).
    /// It waits with the others joining and is admitted in a batch (`joinBatch`), in the order they came.
    public nonisolated func join(name: String, countOnly: Bool = false) async -> Follower? {
        await withCheckedContinuation { answer in
            waiting.add(WaitingJoins.Request(name: name, countOnly: countOnly, answer: answer)) { await self.admitWaiting() }
        }
    }

    /// Joins waiting to be admitted now (tests).
    nonisolated var waitingJoins: Int { waiting.count }

    /// Admits the waiting joins a batch at a time; between batches the actor runs what queued meanwhile
    /// (an owner's turn) first. Ends when none waits.
    private func admitWaiting() async {
        while !Task.isCancelled {
            if let admissionGate { await admissionGate() }
            let batch = waiting.take(Self.joinBatch)
            if batch.isEmpty { return }
            let admitted = admit(batch) ?? []
            for (index, request) in batch.enumerated() { request.answer.resume(returning: index < admitted.count ? admitted[index] : nil) }
            await Task.yield()
        }
    }

    /// Admits a batch of joins, in order (none before a story is selected or once the session ended).
    /// Their welcomes are the state after the whole batch joined, each kind encoded once for the batch:
    /// a storm of 2,000 costs 2 encodings a batch, not one a follower.
    private func admit(_ batch: [WaitingJoins.Request]) -> [Follower]? {
        changeOpen { open in
            guard open.shared.story != nil else { return nil }
            let admitted = batch.map { request in
                defer { nextId += 1 }
                return Follower(id: nextId, name: request.name, countOnly: request.countOnly, outbox: FollowerOutbox())
            }
            open.followers.append(contentsOf: admitted)
            open.shared.participants.append(contentsOf: admitted.map(\.name))
            open.shared.followers = open.followers.count
            if let welcome = open.shared.welcome { broadcast(welcome, to: admitted) }
            participantsChanged(&open, joined: Set(admitted.map(\.id)))
            return admitted
        }
    }

    /// A follower left (its connection closed).
    public func leave(_ id: Int) {
        changeOpen { (open: inout Open) -> Void? in
            guard let index = open.followers.firstIndex(where: { $0.id == id }) else { return nil }
            open.followers.remove(at: index).outbox.close()
            open.shared.participants.remove(at: index)
            open.shared.followers = open.followers.count
            participantsChanged(&open)
            if open.tally?.remove(id) == true { votesChanged(&open) }
            return ()
        }
    }

    /// The participants changed: the owner and the followers are told at once without a delay (all
    /// followers but those `joined`, whose welcomes have them), else once their delay passed.
    private func participantsChanged(_ open: inout Open, joined: Set<Int> = []) {
        if participantsDelay == .zero {
            participantsInput.yield(open.shared.participants)
        } else if open.ownerFlush == nil {
            let delay = participantsDelay
            open.ownerFlush = Task {
                try? await Task.sleep(for: delay)
                self.tellOwner()
            }
        }
        if followersDelay == .zero {
            tellFollowers(open, except: joined)
        } else if open.followersFlush == nil {
            let delay = followersDelay
            open.followersFlush = Task {
                try? await Task.sleep(for: delay)
                self.tellFollowers()
            }
        }
    }

    /// The participants now, to the owner's status line (after the delay).
    private func tellOwner() {
        changeOpen { open in
            open.ownerFlush = nil
            participantsInput.yield(open.shared.participants)
            return ()
        }
    }

    /// The participants now, to the followers (after the delay).
    private func tellFollowers() {
        changeOpen { open in
            open.followersFlush = nil
            tellFollowers(open)
            return ()
        }
    }

    /// Their number to the followers that said `countOnly`, the names (encoded only if one did not) to
    /// the others.
    private func tellFollowers(_ open: Open, except joined: Set<Int> = []) {
        let others = joined.isEmpty ? open.followers : open.followers.filter { !joined.contains($0.id) }
        broadcast(.followers(open.shared.followers), to: others.filter(\.countOnly))
        broadcast(.participants(open.shared.participants), to: others.filter { !$0.countOnly })
    }

    /// The owner ends the session: every follower gets `end(name)` as its last message.
    public func end() {
        for request in waiting.close() { request.answer.resume(returning: nil) }
        guard case .open(let open) = state else { return }
        open.ownerFlush?.cancel()
        open.followersFlush?.cancel()
        open.votesFlush?.cancel()
        var shared = open.shared
        shared.endedBy = shared.owner
        state = .ended(shared)
        broadcast(.end(name: shared.owner), to: open.followers)
        participantsInput.finish()
        votesInput.finish()
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
