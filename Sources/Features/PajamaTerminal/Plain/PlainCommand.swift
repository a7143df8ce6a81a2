import FoundationEssentials
import Glibc
import PajamaBasics

/// One line the reader typed in plain mode (`pajama read --plain`), as a command.
public enum PlainCommand: Sendable, Equatable {
    /// Enter alone (or `n`): the next line, page or beat.
    case next
    /// A number: take that choice (1-based, as the list shows it).
    case choose(Int)
    /// `b`: back to the previous page.
    case back
    /// `r`: restart (asks first); on an error, retry.
    case restart
    /// `k`: show the page without the asset that failed.
    case skip
    /// `s`: save a bookmark (asks its name).
    case save
    /// `o`: the bookmarks, to open one.
    case bookmarks
    /// `i`: the story's status page (a ChoiceScript game's stats), when it has one.
    case status
    /// `>`: on through the pages seen before.
    case skipSeen
    /// `v`: read aloud on or off.
    case readAloud
    /// `p`: say the page again (all of it that is shown).
    case repeatPage
    /// `?` or `h`: the commands.
    case help
    /// `q`: quit (progress is kept).
    case quit
    /// `t` or `votes`: the co-readers' votes on this page (a session that takes votes).
    case votes
    /// `g`: the owner of a session that takes votes takes the choice with the most votes.
    case takeLeadingVote
    /// Anything else, as typed (trimmed).
    case unknown(String)

    /// The command a line stands for; spaces around it do not count, letters are not case-sensitive.
    public init(line: String) {
        let text = line.trimmingSpaces
        if let number = Int(text) {
            self = .choose(number)
            return
        }
        switch text.lowercased() {
        case "", "n", "next": self = .next
        case "b", "back": self = .back
        case "r", "restart", "retry": self = .restart
        case "k", "skip": self = .skip
        case "s", "save": self = .save
        case "o", "bookmarks": self = .bookmarks
        case "i", "stats": self = .status
        case ">": self = .skipSeen
        case "v": self = .readAloud
        case "p", "page": self = .repeatPage
        case "?", "h", "help": self = .help
        case "q", "quit", "exit": self = .quit
        case "t", "votes": self = .votes
        case "g": self = .takeLeadingVote
        default: self = .unknown(text)
        }
    }

    /// What `?` prints.
    public static let helpLines = [
        "Commands (type one, then Enter):",
        "  Enter    the next line or page",
        "  1, 2...  take that choice",
        "  (a question page: the line typed is the answer; a command there starts with :, as :q)",
        "  b        back to the previous page",
        "  r        restart from the beginning (asks first); on an error, retry",
        "  k        on an error: show the page without the picture or sound that failed",
        "  >        on through pages read before",
        "  s        save a bookmark (asks its name)",
        "  o        the bookmarks, to open one",
        "  i        the story's own page (a ChoiceScript game's stats), when it has one",
        "  p        say the page again",
        "  v        read aloud on or off",
        "  t        co-reading with votes: the votes on this page (g: the owner takes the leading one)",
        "  ?        these commands",
        "  q        quit (your place is kept)",
    ]
}
