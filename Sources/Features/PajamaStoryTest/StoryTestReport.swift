import PajamaStoryFormat

/// What a test run of a story found (docs/testing.md): what it reached of the story, the endings, and every
/// problem with the choices that reach it. The same story, options and seed give the same report, whatever
/// the number of jobs.
public struct StoryTestReport: Sendable, Equatable, Codable {
    public var story: String
    public var title: String
    /// "random" or "exhaustive".
    public var mode: String
    public var runs: Int
    public var seed: Int
    public var coverage: [Coverage]
    public var endings: [Ending]
    public var problems: [Problem]
    /// The exhaustive walk's states and whether it saw every state it could reach (nil for random runs).
    public var exhaustive: Exhaustive?
    /// The choices never offered and why, where the format can tell (nil where it cannot).
    public var neverOffered: [NeverOfferedChoice]?

    /// What was reached of one kind of part of the story (beats, pages, knots, passages...).
    public struct Coverage: Sendable, Equatable, Codable {
        public var kind: String
        public var reached: Int
        /// nil when the story does not say how many there are (pages of a story made as it is read).
        public var total: Int?
        public var unreached: [String]

        public var percent: Double? { total.map { $0 == 0 ? 100 : Double(reached) * 100 / Double($0) } }

        private enum CodingKeys: String, CodingKey { case kind, reached, total, percent, unreached }

        public init(kind: String, reached: Int, total: Int?, unreached: [String]) {
            self.kind = kind
            self.reached = reached
            self.total = total
            self.unreached = unreached
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init(kind: try container.decode(String.self, forKey: .kind), reached: try container.decode(Int.self, forKey: .reached),
                      total: try container.decodeIfPresent(Int.self, forKey: .total), unreached: try container.decode([String].self, forKey: .unreached))
        }

        /// With `percent`, one decimal, for a CI step to read.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(kind, forKey: .kind)
            try container.encode(reached, forKey: .reached)
            try container.encodeIfPresent(total, forKey: .total)
            try container.encodeIfPresent(percent.map { ($0 * 10).rounded() / 10 }, forKey: .percent)
            try container.encode(unreached, forKey: .unreached)
        }
    }

    /// One ending and how many runs reached it.
    public struct Ending: Sendable, Equatable, Codable {
        /// The ending's beat id (a story package), or its last line (a story made as it is read, whose beat
        /// ids are the paths to them).
        public var id: String
        public var count: Int
    }

    public struct Problem: Sendable, Equatable, Codable, Comparable {
        public enum Kind: String, Sendable, Codable, CaseIterable {
            /// A page with no way on that is not an ending (a choice page with no choice).
            case deadEnd = "dead-end"
            /// The story's runtime stopped (an ink error, an external function it needs, a Harlowe error).
            case runtimeError = "runtime-error"
            /// A beat the reading goes to cannot be read.
            case unreadable
            /// A picture or sound named on a page that was reached is not in the story.
            case missingAsset = "missing-asset"
            /// A run went `maxSteps` beats without an ending.
            case noEnding = "no-ending"
        }

        public var kind: Kind
        public var message: String
        public var beatId: String
        public var pageId: String?
        /// The choices that reach it from the start (1-based), for `pajama play STORY --choices ...`.
        public var choices: [Int]
        /// The `pajama play` line that reads the story along those choices to it.
        public var replay: String

        /// The same problem found on another way: same kind and words, and in a package the same beat and page
        /// (a story made as it is read has a beat id for every way to a place, so there the words say where).
        var identity: String

        private enum CodingKeys: String, CodingKey { case kind, message, beatId, pageId, choices, replay }

        init(kind: Kind, message: String, beatId: String, pageId: String?, choices: [Int], replay: String, madeBeats: Bool) {
            self.kind = kind
            self.message = message
            self.beatId = beatId
            self.pageId = pageId
            self.choices = choices
            self.replay = replay
            identity = madeBeats ? "\(kind.rawValue)\u{0}\(message)" : "\(kind.rawValue)\u{0}\(beatId)\u{0}\(pageId ?? "")\u{0}\(message)"
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init(kind: try container.decode(Kind.self, forKey: .kind), message: try container.decode(String.self, forKey: .message),
                      beatId: try container.decode(String.self, forKey: .beatId), pageId: try container.decodeIfPresent(String.self, forKey: .pageId),
                      choices: try container.decode([Int].self, forKey: .choices), replay: try container.decode(String.self, forKey: .replay),
                      madeBeats: false)
        }

        /// By identity, then the shorter way to it first (the replay a report keeps).
        public static func < (a: Problem, b: Problem) -> Bool {
            if a.identity != b.identity { return a.identity < b.identity }
            if a.choices.count != b.choices.count { return a.choices.count < b.choices.count }
            return a.choices.lexicographicallyPrecedes(b.choices)
        }
    }

    public struct Exhaustive: Sendable, Equatable, Codable {
        public var states: Int
        /// True when every state reachable from the start was seen within `--max-states`.
        public var complete: Bool
    }

    /// True when nothing is wrong (exit 0).
    public var passed: Bool { problems.isEmpty && !endings.isEmpty }
}
