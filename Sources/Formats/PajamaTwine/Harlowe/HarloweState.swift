/// Everything a Harlowe reading carries from one moment to the next: variables, the passages visited, the
/// random generator, and the links still open on the page (with the hooks they reveal). A value: the beat
/// maker keeps copies, and it saves as JSON (`Codable`) with the reading's progress.
public struct HarloweState: Sendable, Equatable, Codable {
    public var variables: [String: HarloweValue] = [:]
    /// The passages visited, oldest first, the current one last.
    public var history: [String] = []
    /// The random generator's state (SplitMix64), seeded by the reading's seed.
    @ExactUInt64 public var random: UInt64
    /// The links the current moment offers, in order.
    public var links: [HarloweLink] = []
    /// The current passage's hidden hooks (`|name)[...]`) by name, their sources: `(show:)` in a link's hook
    /// shows them later.
    public var hidden: [String: String] = [:]
    /// Tracks named by `(newtrack:)` (HAL), name to source (`hal.tracks` is read from the story).
    public var tracks: [String: String] = [:]
    /// Tracks `(track: name, 'loop', true)` set looping.
    public var looping: Set<String> = []
    /// The source looping in the background now, if any.
    public var loop: String?
    /// The text the last moment showed (a link's hook may change its named hooks in place).
    public var shown: HarloweShownText?

    public init(seed: Int) { random = UInt64(truncatingIfNeeded: seed) &* 0x9E37_79B9_7F4A_7C15 &+ 0x2545_F491_4F6C_DD1D }

    /// The next random number in 0..<1 (SplitMix64): `(either:)`, `(random:)`, `(shuffled:)`.
    mutating func nextUnit() -> Double {
        random &+= 0x9E37_79B9_7F4A_7C15
        var z = random
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Double(z >> 11) / Double(UInt64(1) << 53)
    }

    /// A random integer in `low...high`.
    mutating func integer(_ low: Int, _ high: Int) -> Int {
        let (a, b) = (min(low, high), max(low, high))
        return a + Int(nextUnit() * Double(b - a + 1))
    }
}

/// A `UInt64` saved exactly in JSON: a number when it fits in an `Int` (as states were always written), else
/// its digits as a string, since a JSON number beyond `Int` is read as a double and would lose its low bits
/// (a state written so by older versions does not decode, and the bridge replays the links instead).
@propertyWrapper
public struct ExactUInt64: Sendable, Equatable, Codable {
    public var wrappedValue: UInt64

    public init(wrappedValue: UInt64) { self.wrappedValue = wrappedValue }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let digits = try? container.decode(String.self) {
            guard let value = UInt64(digits) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "expected an unsigned integer, found \"\(digits.prefix(30))\""))
            }
            wrappedValue = value
        } else {
            wrappedValue = try container.decode(UInt64.self)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let small = Int(exactly: wrappedValue) { try container.encode(small) } else { try container.encode(String(wrappedValue)) }
    }
}

/// A link offered to the reader.
public struct HarloweLink: Sendable, Equatable, Codable {
    public enum Action: Sendable, Equatable, Codable {
        /// To a passage (`[[...]]`, `(link-goto:)`).
        case goto(String)
        /// Shows a hook (`(link:)`, `(link-reveal:)`, `(click:)`, `(link-show:)`): its source, the temporary
        /// variables where it was written, whether the link stays (`(link-repeat:)`), and whether its text
        /// stays before what it shows (`(link-reveal:)`).
        case reveal(source: String, temps: [String: HarloweValue], repeats: Bool, keepsText: Bool)
    }

    /// The link's text, markup taken off.
    public var label: String
    public var action: Action
    /// The link's text as the HTML a passage's lines are made of, when its markup styles it (`[[*Blushes*
    /// and giggles->Ram]]`); nil for plain text.
    public var styled: String? = nil
}
