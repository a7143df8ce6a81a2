import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaModel

/// A saved place in a story: a bookmark the reader named (`s`), or an autosave written before a choice.
public struct Bookmark: Codable, Sendable, Equatable {
    public var name: String
    public var location: StoryLocation
    /// The way there, the place itself last (back works after opening it, as after resuming).
    public var history: [StoryLocation]
    /// The page's first words, for the list.
    public var firstWords: String
    public var savedAt: Date
    /// The origin of the beat at `location`, for a story made as it is read (ink); absent otherwise.
    public var origin: BeatOrigin?

    public init(name: String, location: StoryLocation, history: [StoryLocation], firstWords: String, savedAt: Date, origin: BeatOrigin? = nil) {
        self.name = name
        self.location = location
        self.history = history
        self.firstWords = firstWords
        self.savedAt = savedAt
        self.origin = origin
    }

    private enum CodingKeys: String, CodingKey {
        case name, location, history, firstWords, savedAt, origin
    }

    /// `savedAt` is written as ISO 8601 in whole seconds (`2026-11-24T12:31:05Z`), as bookmark files always were.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        location = try container.decode(StoryLocation.self, forKey: .location)
        history = try container.decode([StoryLocation].self, forKey: .history)
        firstWords = try container.decode(String.self, forKey: .firstWords)
        let time = try container.decode(String.self, forKey: .savedAt)
        guard let date = try? Date.ISO8601FormatStyle().parse(time) else {
            throw DecodingError.dataCorrupted(.init(codingPath: container.codingPath + [CodingKeys.savedAt],
                                                    debugDescription: "expected an ISO 8601 time, found \"\(time.prefix(40))\""))
        }
        savedAt = date
        origin = try container.decodeIfPresent(BeatOrigin.self, forKey: .origin)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(location, forKey: .location)
        try container.encode(history, forKey: .history)
        try container.encode(firstWords, forKey: .firstWords)
        try container.encode(savedAt.ISO8601Format(), forKey: .savedAt)
        try container.encodeIfPresent(origin, forKey: .origin)
    }

    /// Whether `name` is an autosave's ("autosave " and its time), as the bookmarks list tells them from the
    /// named ones.
    public static func isAutosaveName(_ name: String) -> Bool {
        name.hasPrefix("autosave ") && name.dropFirst("autosave ".count).first?.isNumber == true
    }

    /// A time as the bookmarks show it and autosaves are named: `2026-11-24 12:31 UTC` (with seconds:
    /// `12:31:05`).
    public static func timeText(_ date: Date, seconds: Bool = false) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = LocalTime.utc
        let t = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let day = cFormat("%04ld-%02ld-%02ld %02ld:%02ld", t.year ?? 0, t.month ?? 0, t.day ?? 0, t.hour ?? 0, t.minute ?? 0)
        return (seconds ? day + cFormat(":%02ld", t.second ?? 0) : day) + " UTC"
    }

    /// The first `count` words of what a page says (a title, a text page's first line, a choice's prompt).
    public static func firstWords(of page: Page, count: Int = 6) -> String {
        let text: String
        switch page.kind {
        case .title(let title, _): text = title
        case .text(let lines): text = lines.first ?? ""
        case .choice(let prompt, let choices): text = prompt ?? choices.first?.text ?? ""
        case .question(let question): text = question.label ?? question.hint
        }
        let words = text.split(whereSeparator: \.isWhitespace)
        return words.prefix(count).joined(separator: " ") + (words.count > count ? "…" : "")
    }
}

/// One story's bookmarks file: the named bookmarks and the newest autosaves.
public struct BookmarkFile: Codable, Sendable, Equatable {
    public var bookmarks: [Bookmark] = []
    /// Oldest first; at most `BookmarkStore.autosavesKept`.
    public var autosaves: [Bookmark] = []

    public init(bookmarks: [Bookmark] = [], autosaves: [Bookmark] = []) {
        self.bookmarks = bookmarks
        self.autosaves = autosaves
    }

    /// Every name, bookmarks first.
    public var names: [String] { (bookmarks + autosaves).map(\.name) }

    /// The bookmark or autosave called `name`.
    public func named(_ name: String) -> Bookmark? { (bookmarks + autosaves).first { $0.name == name } }
}
