/// The contents of `story.json`.
public struct StoryManifest: Hashable, Sendable {
    /// The only format version this reader understands.
    public static let supportedFormat = 1

    public var format: Int
    public var id: String
    public var title: String
    public var author: String?
    /// A sentence or two about the story, for the library (`description` in story.json; optional).
    public var description: String?
    /// Opaque; when it changes every cached beat and asset of the story is stale.
    public var version: String?
    public var startBeatId: String
    /// Every beat id, when the story lists them.
    public var beats: [String]?
    /// Reveal text pages one line per tap.
    public var lineByLine: Bool
    /// Criticality overrides by asset path.
    public var criticality: [AssetPath: Criticality]
    /// The criticality of every asset `criticality` does not name, in place of the defaults by role
    /// (`assets.defaultCriticality`; nil: the defaults). ink and Twine stories are `important`: a picture or
    /// sound their pages name is never a reason to stop, unless tagged `critical` (docs/story-format.md).
    public var defaultCriticality: Criticality?
    /// The look the story asks for (`presentation.theme`: `dark` or `light`), used when the reader has not
    /// chosen a theme (docs/story-format.md).
    public var theme: StoryTheme?

    public init(
        format: Int = StoryManifest.supportedFormat, id: String, title: String, author: String? = nil,
        version: String? = nil, startBeatId: String, beats: [String]? = nil, lineByLine: Bool = false,
        criticality: [AssetPath: Criticality] = [:], defaultCriticality: Criticality? = nil, theme: StoryTheme? = nil,
        description: String? = nil
    ) {
        self.defaultCriticality = defaultCriticality
        self.theme = theme
        self.description = description
        self.format = format
        self.id = id
        self.title = title
        self.author = author
        self.version = version
        self.startBeatId = startBeatId
        self.beats = beats
        self.lineByLine = lineByLine
        self.criticality = criticality
    }

    /// The criticality of one use of an asset: the story's override, else the story's default, else the
    /// role's.
    public func criticality(of reference: AssetReference) -> Criticality {
        criticality[reference.path] ?? defaultCriticality ?? reference.role.defaultCriticality
    }

    /// The id of a story known by a name (an ink or Twine file's): every character outside `[A-Za-z0-9_-]`
    /// made `-`, at most 128; `otherwise` for an empty name.
    public static func id(fromName name: String, otherwise: String) -> String {
        let id = String(name.unicodeScalars.prefix(128).map { scalar -> Character in
            let ok = scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-")
            return ok ? Character(scalar) : "-"
        })
        return id.isEmpty ? otherwise : id
    }

    /// A story or beat id: `[A-Za-z0-9_-]{1,128}`.
    public static func isValidId(_ id: String) -> Bool {
        guard !id.isEmpty, id.utf8.count <= 128 else { return false }
        return id.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x5F || byte == 0x2D
        }
    }
}

/// The look a story asks for (`presentation.theme`, an ink story's `# theme:`): the reader picks a dark or a
/// light theme for it unless the reader chose one (`--theme`, `t`).
public enum StoryTheme: String, Hashable, Sendable {
    case dark, light
}
