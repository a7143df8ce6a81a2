import FoundationEssentials
import Glibc
import PajamaBasics

/// One screen of a beat.
public struct Page: Hashable, Sendable {
    public var id: String
    public var kind: PageKind
    /// A picture shown with the page (PNG or `.txt` text art).
    public var imageUrl: AssetPath?
    /// What the picture shows, in words (`imageAlt`): what plain mode prints in its place.
    public var imageAlt: String?
    /// Tools attached to the page; version 1 defines `sound_effect`.
    public var tools: [Tool]
    /// The styling of a text page's lines (bold, italic, underline, dim, hard line breaks), for the lines that
    /// have any; the lines themselves are plain text (docs/story-format.md, "Styled text").
    public var marks: [LineMarks]

    public init(id: String, kind: PageKind, imageUrl: AssetPath? = nil, imageAlt: String? = nil, tools: [Tool] = [], marks: [LineMarks] = []) {
        self.id = id
        self.kind = kind
        self.imageUrl = imageUrl
        self.imageAlt = imageAlt
        self.tools = tools
        self.marks = marks
    }

    /// The marks of line `index`, if it has any: a text page's line, a title page's title (0) or subtitle (1),
    /// a choice page's choice.
    public func marks(ofLine index: Int) -> LineMarks? { marks.first { $0.line == index } }

    /// What the page says about the background sound (the last `background_sound` tool), nil: nothing (the
    /// one playing goes on).
    public var backgroundSound: BackgroundSound? { tools.last { $0.backgroundSound != nil }?.backgroundSound }

    /// The sound effects of the page that the reader understands.
    public var soundEffects: [SoundEffect] { tools.compactMap(\.soundEffect) }

    /// Sounds to play when the page is entered.
    public var pageEnterSounds: [AssetPath] { soundEffects.filter { $0.trigger == .pageEnter }.map(\.soundURL) }

    /// Sounds to play when the reader taps on the page.
    public var tapSounds: [AssetPath] { soundEffects.filter { $0.trigger == .tap }.map(\.soundURL) }

    /// The captions of the sounds that play on `trigger` (the ones that have a caption), in order.
    public func captions(_ trigger: SoundTrigger) -> [String] {
        soundEffects.filter { $0.trigger == trigger }.compactMap { $0.caption?.trimmingSpaces }.filter { !$0.isEmpty }
    }

    /// Number of lines a location on this page can reveal (1 for title and choice pages).
    public var lineCount: Int {
        if case .text(let lines) = kind { return lines.count }
        return 1
    }

    /// The picture in words, for a reader who does not see it: its `imageAlt`, else its file's name
    /// without the extension ("assets/lighthouse-at-dusk.png": "lighthouse at dusk"); nil without a picture.
    public var pictureDescription: String? {
        guard let imageUrl else { return nil }
        if let alt = imageAlt?.trimmingSpaces, !alt.isEmpty { return alt }
        let file = imageUrl.value.split(separator: "/").last.map(String.init) ?? imageUrl.value
        let stem = file.contains(".") ? String(file[..<file.lastIndex(of: ".")!]) : file
        let words = stem.map { $0 == "-" || $0 == "_" ? " " : $0 }
        return String(words).isEmpty ? file : String(words)
    }

    /// The question of a question page, or nil.
    public var question: Question? {
        if case .question(let question) = kind { return question }
        return nil
    }

    /// The choices of a choice page, or none.
    public var choices: [Choice] {
        if case .choice(_, let choices) = kind { return choices }
        return []
    }

    /// Every asset the page refers to, each with its role.
    public func assetReferences(beatId: String) -> [AssetReference] {
        var refs: [AssetReference] = []
        if let image = imageUrl {
            let role: AssetRole = if case .choice = kind { .choiceImage } else { .pageImage }
            refs.append(AssetReference(path: image, role: role, beatId: beatId, pageId: id))
        }
        for effect in soundEffects {
            let role: AssetRole = effect.trigger == .pageEnter ? .pageEnterSound : .tapSound
            refs.append(AssetReference(path: effect.soundURL, role: role, beatId: beatId, pageId: id))
        }
        if let loop = backgroundSound?.path {
            refs.append(AssetReference(path: loop, role: .backgroundSound, beatId: beatId, pageId: id))
        }
        for (index, choice) in choices.enumerated() {
            if let sound = choice.soundURL {
                refs.append(AssetReference(path: sound, role: .choiceSound(index: index), beatId: beatId, pageId: id))
            }
        }
        return refs
    }
}

/// The three kinds of page.
public enum PageKind: Hashable, Sendable {
    case title(title: String, subtitle: String?)
    case text(lines: [String])
    case choice(prompt: String?, choices: [Choice])
    /// A typed answer asked for (the last page of its beat, as a choice page is); `Question`.
    case question(Question)

    /// The format's spelling of the kind (`title`, `text`, `choice`).
    public var typeName: String {
        switch self {
        case .title: "title"
        case .text: "text"
        case .choice: "choice"
        case .question: "question"
        }
    }
}

/// One option of a choice page.
public struct Choice: Hashable, Sendable {
    public var text: String
    public var targetBeatId: String
    /// Played when this choice is taken.
    public var soundURL: AssetPath?

    public init(text: String, targetBeatId: String, soundURL: AssetPath? = nil) {
        self.text = text
        self.targetBeatId = targetBeatId
        self.soundURL = soundURL
    }
}

extension PageKind {
    /// How many lines a page's `marks` can style: a text page's lines, a title page's title and subtitle
    /// (lines 0 and 1), a choice page's choices (line `i` is choice `i`).
    public var markableLineCount: Int {
        switch self {
        case .text(let lines): lines.count
        case .title(_, let subtitle): subtitle == nil ? 1 : 2
        case .choice(_, let choices): choices.count
        case .question: 1
        }
    }
}
