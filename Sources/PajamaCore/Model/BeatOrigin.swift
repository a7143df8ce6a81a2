/// The way to a beat of a story that is made as it is read (an ink story, docs/ink.md): what a later session
/// needs to make the same beat again. Native beats have none.
///
/// Saved with the reading progress (the current beat's origin), so resume needs neither the earlier session
/// nor its caches: the story's source rebuilds the beat from `state` when the story is unchanged, else by
/// replaying `choices` from the start.
public struct BeatOrigin: Codable, Sendable, Hashable {
    /// The story's random seed for this reading.
    public var seed: Int
    /// The steps from the story's start: a choice index (0-based), or -1 for "the text went on" (a long run
    /// split into several beats).
    public var steps: [Int]
    /// The runtime's saved state at the start of the beat (ink's own state JSON), when it was kept.
    public var state: String?
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
        background: String? = nil, backgroundAlt: String? = nil
    ) {
        self.seed = seed
        self.steps = steps
        self.state = state
        self.version = version
        self.stopped = stopped
        self.loop = loop
        self.background = background
        self.backgroundAlt = backgroundAlt
    }
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
            if part.elementsEqual("-1".utf8) {
                steps.append(-1)
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
