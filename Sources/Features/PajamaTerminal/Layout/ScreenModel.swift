import PajamaModel
import PajamaReading
import PajamaImage

/// Everything one frame of the reader shows; the renderers are pure functions of it.
public struct ScreenModel: Sendable {
    /// The main area.
    public enum Content: Sendable {
        /// Waiting for a beat or a critical asset (shown only after a grace period).
        case loading(String)
        case page(PageView)
        /// Something failed; the reader can retry, maybe skip, go back (unless it failed on the first
        /// page), or quit.
        case error(message: String, canSkip: Bool, canGoBack: Bool = true)
        /// The end screen: the last page of an ending, "The End" and how the reading went.
        case finished(PageView, EndSummary)
        /// Nothing yet (before the first page, inside the grace period).
        case blank
    }

    public var storyTitle: String
    public var content: Content
    /// Left part of the status line (position).
    public var position: String
    /// Right part of the status line (sound state, notices).
    public var soundStatus: String
    public var notice: String?
    public var showHelp: Bool
    /// How far the help overlay is scrolled (rows), where it does not fit.
    public var helpScroll: Int
    public var confirmRestart: Bool
    /// A side panel with statistics (`--stats`), one line each.
    public var statsLines: [String]?
    /// Lines the help overlay shows above the keys (the join command while hosting).
    public var helpHeader: [String]
    /// The list overlay (backlog, bookmarks), when one is open.
    public var pickList: PickList?
    /// The bookmark's name being typed, when `s` asks for one.
    public var bookmarkName: NameField?
    /// The story's status page (`i`), when it is shown.
    public var statusOverlay: StatusOverlay?
    /// The title of the story's status page, named in the help (nil: the story has none).
    public var statusKey: String?
    /// The help names `g` (the owner of a session that takes votes).
    public var votesKey = false

    public init(
        storyTitle: String, content: Content, position: String = "", soundStatus: String = "", notice: String? = nil,
        showHelp: Bool = false, helpScroll: Int = 0, confirmRestart: Bool = false, statsLines: [String]? = nil,
        helpHeader: [String] = [], pickList: PickList? = nil, bookmarkName: NameField? = nil, statusOverlay: StatusOverlay? = nil,
        statusKey: String? = nil
    ) {
        self.statusOverlay = statusOverlay
        self.statusKey = statusKey
        self.bookmarkName = bookmarkName
        self.pickList = pickList
        self.helpHeader = helpHeader
        self.storyTitle = storyTitle
        self.content = content
        self.position = position
        self.soundStatus = soundStatus
        self.notice = notice
        self.showHelp = showHelp
        self.helpScroll = helpScroll
        self.confirmRestart = confirmRestart
        self.statsLines = statsLines
    }
}

/// A page as shown: its content, how many lines are revealed, the selected choice and its picture,
/// already rendered into cells (`PictureCache`) so composing the frame does no picture work.
public struct PageView: Sendable {
    public var page: Page
    public var revealedLines: Int
    public var selectedChoice: Int
    /// The picture's cells, rendered for the box `PageRenderer.pictureBox` gives (or for the previous
    /// size while the new one renders: drawn clipped); nil while it loads or when the page has none.
    public var picture: PictureCells?
    /// True when the page's picture failed to load (shown as a small "picture unavailable" frame).
    public var pictureMissing: Bool
    /// Lines scrolled past (PgUp/PgDn on long pages).
    public var scroll: Int
    /// On a question page: the answer typed so far, with its cursor (`NameField.shown`).
    public var answerLine: String = "▏"
    /// On a choice page of a session that takes votes: the votes on this page (`ChoiceVotes.label`).
    public var votes: ChoiceVotes?

    public init(page: Page, revealedLines: Int, selectedChoice: Int = 0, picture: PictureCells? = nil,
                pictureMissing: Bool = false, scroll: Int = 0) {
        self.page = page
        self.revealedLines = revealedLines
        self.selectedChoice = selectedChoice
        self.picture = picture
        self.pictureMissing = pictureMissing
        self.scroll = scroll
    }
}
