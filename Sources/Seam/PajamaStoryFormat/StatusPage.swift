import PajamaModel

/// A page a story format may offer over the story's own pages, on key `i` in the reader and in plain mode
/// (docs/reader.md): where the reading stands, as the story itself says it. A ChoiceScript game's stats
/// screen (`choicescript_stats.txt`, its `*stat_chart`s); a SugarCube story's StoryCaption may be one too.
/// Plain text (no markup), with the meters a stats screen draws as bars.
public struct StatusPage: Sendable, Equatable {
    public enum Row: Sendable, Equatable {
        /// A paragraph of text ("" for an empty line).
        case text(String)
        /// A value out of a whole: its caption ("Strength: 57%") and how full its bar is (0 to 1).
        case meter(String, fraction: Double)
        /// Two values sharing one bar: the left's caption, the right's, and the left's share (0 to 1).
        case opposed(String, String, fraction: Double)
    }

    /// Its name ("Stats"), the overlay's heading.
    public var title: String
    public var rows: [Row]

    public init(title: String, rows: [Row]) {
        self.title = title
        self.rows = rows
    }

    /// The page as lines of text, `barWidth` cells for a bar (none: 0, as plain mode prints it).
    public func lines(barWidth: Int) -> [String] {
        func bar(_ fraction: Double) -> String {
            let filled = Int((max(0, min(1, fraction.isFinite ? fraction : 0)) * Double(barWidth)).rounded())
            return String(repeating: "█", count: filled) + String(repeating: "░", count: barWidth - filled)
        }
        return rows.flatMap { row -> [String] in
            switch row {
            case .text(let text): [text]
            case .meter(let caption, let fraction): barWidth > 0 ? [caption, bar(fraction)] : [caption]
            case .opposed(let left, let right, let fraction): barWidth > 0 ? ["\(left)  \(right)", bar(fraction)] : ["\(left), \(right)"]
            }
        }
    }
}

/// A story source that offers a status page (`StatusPage`): the reader asks it for the page at the beat
/// shown when `i` is pressed, and names `i` (in the help and the status line) only when the story has one.
public protocol StatusPageSource: StorySource {
    /// The status page's title ("Stats") when the story has one, nil when it has none.
    func statusPageTitle() async -> String?
    /// The status page as the reading stands at the end of beat `beatId` (where its page waits for the
    /// reader); nil when the story has none, or for a beat it never handed out.
    func statusPage(at beatId: String) async -> StatusPage?
}
