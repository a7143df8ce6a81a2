/// The way to a beat of a story that is made as it is read (an ink story, docs/ink.md): what a later session
/// needs to make the same beat again. Native beats have none.
///
/// Saved with the reading progress (the current beat's origin), so resume needs neither the earlier session
/// nor its caches: the story's source rebuilds the beat from `state` when the story is unchanged, else by
/// replaying `choices` from the start.
public struct BeatOrigin: Codable, Sendable, Hashable {
    /// The story's random seed for this reading.
    public var seed: Int
    /// The steps from the story's start: a choice index (0-based), -1 for "the text went on" (a long run
    /// split into several beats), or `BeatOrigin.answered` for a typed answer (the next of `answers`).
    public var steps: [Int]
    /// The typed answers along the steps (`Question`), one for each `answered` step, in order; nil: none.
    public var answers: [String]?
    /// The runtime's saved state at the start of the beat (ink's own state JSON), when it was kept. A source
    /// may give it as a `DeferredState`, written when first read: most beats are never saved or shared.
    public var state: String? {
        get {
            switch kept {
            case nil: nil
            case .written(let text): text
            case .deferred(let deferred): deferred.text
            }
        }
        set { kept = newValue.map(KeptState.written) }
    }
    private var kept: KeptState?

    private enum KeptState: Sendable {
        case written(String)
        case deferred(DeferredState)
    }
    /// The story version `state` belongs to (a state of another version is not used).
    public var version: String?
    /// Why the beat ends without an ending of the story, when the runtime stopped in it: an ink runtime
    /// error, or an external function the story needs from a game (`pajama play` exits 3 there).
    public var stopped: String?
    /// The background sound and picture in effect at the beat's start (an ink story's `# AUDIOLOOP:` and
    /// `# BACKGROUND:`, `PageScene`), so a beat made again from `state` has them; nil when none.
    public var loop: String?
    public var background: String?
    /// What `background` shows, in words (its `# alt:`).
    public var backgroundAlt: String?

    public init(
        seed: Int, steps: [Int], state: String? = nil, version: String? = nil, stopped: String? = nil, loop: String? = nil,
        background: String? = nil, backgroundAlt: String? = nil, answers: [String]? = nil
    ) {
        self.seed = seed
        self.steps = steps
        self.answers = answers?.isEmpty == true ? nil : answers
        kept = state.map(KeptState.written)
        self.version = version
        self.stopped = stopped
        self.loop = loop
        self.background = background
        self.backgroundAlt = backgroundAlt
    }

    /// The origin with a state written only when something reads it (`state`).
    public init(
        seed: Int, steps: [Int], deferredState: DeferredState, version: String? = nil, stopped: String? = nil,
        loop: String? = nil, background: String? = nil, backgroundAlt: String? = nil, answers: [String]? = nil
    ) {
        self.init(seed: seed, steps: steps, version: version, stopped: stopped, loop: loop, background: background,
                  backgroundAlt: backgroundAlt, answers: answers)
        kept = .deferred(deferredState)
    }

    // Coded and compared as if `state` were a stored string (a deferred state is written for it).
    private enum CodingKeys: String, CodingKey {
        case seed, steps, answers, state, version, stopped, loop, background, backgroundAlt
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            seed: try container.decode(Int.self, forKey: .seed), steps: try container.decode([Int].self, forKey: .steps),
            state: try container.decodeIfPresent(String.self, forKey: .state),
            version: try container.decodeIfPresent(String.self, forKey: .version),
            stopped: try container.decodeIfPresent(String.self, forKey: .stopped),
            loop: try container.decodeIfPresent(String.self, forKey: .loop),
            background: try container.decodeIfPresent(String.self, forKey: .background),
            backgroundAlt: try container.decodeIfPresent(String.self, forKey: .backgroundAlt),
            answers: try container.decodeIfPresent([String].self, forKey: .answers))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(seed, forKey: .seed)
        try container.encode(steps, forKey: .steps)
        try container.encodeIfPresent(answers, forKey: .answers)
        try container.encodeIfPresent(state, forKey: .state)
        try container.encodeIfPresent(version, forKey: .version)
        try container.encodeIfPresent(stopped, forKey: .stopped)
        try container.encodeIfPresent(loop, forKey: .loop)
        try container.encodeIfPresent(background, forKey: .background)
        try container.encodeIfPresent(backgroundAlt, forKey: .backgroundAlt)
    }

    public static func == (lhs: BeatOrigin, rhs: BeatOrigin) -> Bool {
        guard lhs.seed == rhs.seed, lhs.steps == rhs.steps, lhs.answers == rhs.answers, lhs.version == rhs.version, lhs.stopped == rhs.stopped,
            lhs.loop == rhs.loop, lhs.background == rhs.background, lhs.backgroundAlt == rhs.backgroundAlt
        else { return false }
        if case .deferred(let left) = lhs.kept, case .deferred(let right) = rhs.kept, left === right { return true }
        return lhs.state == rhs.state
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(seed)
        hasher.combine(steps)
        hasher.combine(answers)
        hasher.combine(version)
        hasher.combine(stopped)
        hasher.combine(loop)
    }
}

/// A runtime's state written out when first read, once: a source that makes beats as they are read keeps its
/// runtime's state as it is and writes it (ink's state JSON takes half a choice's time) only for what reads
/// it: the reading progress, co-reading, `pajama test`'s state hash. `write` may give nil (too large to keep).
public final class DeferredState: Sendable {
    private let written: Locked<State>

    private enum State {
        case waiting(@Sendable () -> String?)
        case written(String?)
    }

    public init(_ write: @escaping @Sendable () -> String?) {
        written = Locked(.waiting(write))
    }

    /// The state, written the first time it is asked for (`write` runs under this object's lock, so once).
    public var text: String? {
        written.withLock { state in
            switch state {
            case .written(let text):
                return text
            case .waiting(let write):
                let text = write()
                state = .written(text)
                return text
            }
        }
    }
}

extension BeatOrigin {
    /// The step of a typed answer (its answer is the next of `answers`).
    public static let answered = -2

    /// The steps with the answer of each `answered` one: `.choice(index)` (or -1) and `.answer(text)`, in order.
    public var moves: [BeatMove] {
        var next = 0
        let answers = self.answers ?? []
        return steps.map { step in
            guard step == Self.answered else { return .choice(step) }
            defer { next += 1 }
            return .answer(next < answers.count ? answers[next] : "")
        }
    }
}

/// One step of a made story's way (`BeatOrigin.moves`).
public enum BeatMove: Hashable, Sendable {
    case choice(Int)
    case answer(String)
}

extension BeatOrigin {
    /// The steps as a made beat's JSON carries them: `"0,2,-1"`, one string (an array of numbers costs a
    /// JSON value, and a decoding cursor, per step: a long reading made every beat dearer than the last).
    static func stepsText(_ steps: [Int]) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(steps.count * 3)
        for (index, step) in steps.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(contentsOf: String(step).utf8)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The steps of `stepsText`, nil when `text` is not a list of steps (each -1 or more).
    static func steps(fromText text: String) -> [Int]? {
        guard !text.isEmpty else { return [] }
        var steps: [Int] = []
        for part in text.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
            if part.elementsEqual("-1".utf8) || part.elementsEqual("-2".utf8) {
                steps.append(part.elementsEqual("-1".utf8) ? -1 : answered)
                continue
            }
            guard !part.isEmpty, part.count <= 9 else { return nil }
            var value = 0
            for byte in part {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            steps.append(value)
        }
        return steps
    }

    /// The FNV-1a hash of `state` in hex (co-reading compares the owner's and a follower's), nil without one.
    public var stateHash: String? { state.map { String(FNV1a.hash($0), radix: 16) } }
}

/// The owner's beat in a co-read story made as it is read (ink): its origin (with the state at its start
/// when that is small enough to send) and the hash of that state, which a follower checks its own against.
public struct BeatSync: Codable, Sendable, Equatable {
    public var beatId: String
    public var origin: BeatOrigin
    public var stateHash: String?

    /// The largest state sent along (a larger one is left out: a follower out of step cannot re-sync).
    public static let maximumState = 32 * 1024

    public init(beatId: String, origin: BeatOrigin, stateHash: String?) {
        self.beatId = beatId
        self.origin = origin
        self.stateHash = stateHash
    }

    /// The sync of `beat`, nil for a beat of a story package.
    public init?(_ beat: Beat) {
        guard var origin = beat.origin else { return nil }
        let hash = origin.stateHash
        if let state = origin.state, state.utf8.count > Self.maximumState { origin.state = nil }
        self.init(beatId: beat.id, origin: origin, stateHash: hash)
    }
}

/// What became of restoring a beat's origin (`StoryContent.restore`).
public enum OriginRestore: Sendable, Equatable {
    /// The way is known again (the source needs nothing, or rebuilt it); beats made before still hold.
    case restored
    /// The way is known again from another seed or a state given with it: beats made before are stale.
    case restoredAnew
    /// The way could not be rebuilt; reading starts from the beginning. The reason is for the reader.
    case failed(String)
}
