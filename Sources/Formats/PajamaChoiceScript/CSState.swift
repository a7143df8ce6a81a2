/// Everything a ChoiceScript reading is at a moment (a choice, or the start): the scene and line, the
/// permanent variables (`*create`, kept across scenes) and the scene's temporary ones (`*temp`, with what
/// ChoiceScript keeps beside them: reuse flags, the `*gosub` stack, the ends of choices), the `*gosub_scene`
/// stack, achievements earned, the random generator, and the options of the choice waiting to be taken.
/// A value, Codable: saved with Pajama's progress and bookmarks.
public struct CSState: Codable, Equatable, Sendable {
    public var scene: String
    var line: Int
    var indent: Int
    public var stats: [String: CSValue]
    var temps: CSTemps
    var subscenes: [CSSubsceneFrame]
    public var achieved: [String]
    var random: CSRandom.State
    var screenEmpty: Bool
    var initialCommands: Bool
    /// The options of the choice the reading waits at (nil elsewhere).
    var pending: [CSPendingOption]?
    /// The typed answer the reading waits for (nil elsewhere).
    var question: CSQuestion?
    /// `*save_checkpoint` slots, by slot name ("" for the default).
    var checkpoints: [String: CSCheckpoint]
    /// Whether the notice for `*purchase` (a free game owns everything) was said.
    var saidPurchase: Bool
    /// The scenes `*goto_random_scene` took already (not to be taken again unless `*allow_reuse`), by name:
    /// ChoiceScript's `choice_grs`, one list for every block of the game.
    var randomScenesTaken: [String]

    init(seed: Int) {
        scene = "startup"
        line = 0
        indent = 0
        stats = [:]
        temps = CSTemps()
        subscenes = []
        achieved = []
        random = CSRandom.State(seed: seed)
        screenEmpty = true
        initialCommands = true
        pending = nil
        checkpoints = [:]
        saidPurchase = false
        randomScenesTaken = []
    }
}

/// A scene's temporary variables and what ChoiceScript keeps with them (its `temps` object).
struct CSTemps: Codable, Equatable, Sendable {
    var values: [String: CSValue] = [:]
    /// Temporaries declared without a value (`*temp name`), sorted.
    var unset: [String] = []
    /// `*hide_reuse`, `*disable_reuse` or `*allow_reuse` in effect for the scene.
    var reuse = "allow"
    /// The option lines (0-based) taken already, sorted.
    var used: [Int] = []
    /// Where an option's body that runs into the next option goes: the choice's last line, or 0 for an error
    /// (a `*choice` may not be fallen out of), by the option's line (0-based, as a string key).
    var choiceEnds: [String: Int] = [:]
    var substack: [CSGosubFrame] = []
    var params: [CSValue] = []
    var looplimit: Int?
    /// How often each line was reached by `*goto` (for `*looplimit`), by line.
    var coverage: [String: Int] = [:]

    func has(_ name: String) -> Bool { values[name] != nil || unset.contains(name) }
}

struct CSGosubFrame: Codable, Equatable, Sendable {
    var line: Int
    var indent: Int
}

struct CSSubsceneFrame: Codable, Equatable, Sendable {
    var scene: String
    var line: Int
    var indent: Int
    var temps: CSTemps
}

struct CSPendingOption: Codable, Equatable, Sendable {
    /// The option's line, 1-based (its body starts at this 0-based line).
    var line: Int
    var reuse: String?
    var selectable: Bool
}

struct CSCheckpoint: Codable, Equatable, Sendable {
    var scene: String
    var line: Int
    var indent: Int
    var stats: [String: CSValue]
    var temps: CSTemps
    var subscenes: [CSSubsceneFrame]
}

extension CSValue {
    /// A number as a JSON number, a string as a string, a boolean as a boolean.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .bool(let bool): try container.encode(bool)
        case .number(let number): try container.encode(number)
        case .string(let string): try container.encode(string)
        }
    }
}
