/// A Twine story, from either of its two forms: Twee 3 source (`Twee.parse`) or the HTML Twine publishes
/// (`TwineHTML.parse`). Passages keep their source text as written (HTML entities already decoded); the
/// story format (`format`, from StoryData or `<tw-storydata format>`) says how to play it.
public struct TwineStory: Sendable, Equatable {
    public var title: String
    public var ifid: String?
    /// The story format's name as written ("Harlowe", "SugarCube"...), nil when the story does not say.
    public var format: String?
    public var formatVersion: String?
    /// The start passage's name.
    public var start: String
    public var passages: [TwinePassage]
    private var byName: [String: Int]

    public init(title: String, ifid: String? = nil, format: String? = nil, formatVersion: String? = nil, start: String, passages: [TwinePassage]) {
        self.title = title
        self.ifid = ifid
        self.format = format
        self.formatVersion = formatVersion
        self.start = start
        self.passages = passages
        var byName: [String: Int] = [:]
        for (index, passage) in passages.enumerated() where byName[passage.name] == nil { byName[passage.name] = index }
        self.byName = byName
    }

    public func passage(named name: String) -> TwinePassage? { byName[name].map { passages[$0] } }

    /// The story format this reader knows the story by.
    public var formatKind: TwineFormatKind { TwineFormatKind(format) }
}

/// One passage: its name, tags and source text.
public struct TwinePassage: Sendable, Equatable {
    public var name: String
    public var tags: [String]
    public var text: String

    public init(name: String, tags: [String] = [], text: String) {
        self.name = name
        self.tags = tags
        self.text = text
    }
}

/// The story formats Pajama tells apart. Harlowe is played; the others' expressions are JavaScript, so
/// their stories are read only when they hold nothing but links and plain text (`TwinePlainCheck`).
public enum TwineFormatKind: String, Sendable, Equatable {
    case harlowe = "Harlowe"
    case sugarCube = "SugarCube"
    case chapbook = "Chapbook"
    case snowman = "Snowman"
    case other

    /// A story that names no format is Harlowe's, Twine 2's default.
    init(_ name: String?) {
        switch name?.lowercased() {
        case nil, "", "harlowe": self = .harlowe
        case "sugarcube": self = .sugarCube
        case "chapbook": self = .chapbook
        case "snowman": self = .snowman
        default: self = .other
        }
    }
}

/// Why a file could not be read as a Twine story.
public struct TwineParseError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Which of its forms a file is, known by its content.
public enum TwineFileKind: Sendable, Equatable {
    case twee
    case html

    /// `.html` when the text holds `<tw-storydata`, `.twee` when a line starts with `::` (a passage
    /// header), nil otherwise.
    public static func of(_ text: String) -> TwineFileKind? {
        if ASCIISearch.contains(text, "<tw-storydata") { return .html }
        if text.hasPrefix("::") || text.hasPrefix("\u{FEFF}::") || text.contains("\n::") { return .twee }
        return nil
    }

    /// The story in `text`, by its kind.
    public static func parse(_ text: String) throws(TwineParseError) -> TwineStory {
        switch of(text) {
        case .html: try TwineHTML.parse(text)
        case .twee: try Twee.parse(text)
        case nil: throw TwineParseError("neither Twee source (no passage header \"::\") nor a published Twine story (no <tw-storydata>)")
        }
    }
}
