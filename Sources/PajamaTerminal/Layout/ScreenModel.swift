import PajamaCore

/// Everything one frame of the reader shows; the renderers are pure functions of it.
public struct ScreenModel: Sendable {
    /// The main area.
    public enum Content: Sendable {
        /// Waiting for a beat or a critical asset (shown only after a grace period).
        case loading(String)
        case page(PageView)
        /// Something failed; the reader can retry, maybe skip, or quit.
        case error(message: String, canSkip: Bool)
        /// The last page of an ending.
        case finished(PageView)
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
    public var confirmRestart: Bool
    /// A side panel with statistics (`--stats`), one line each.
    public var statsLines: [String]?

    public init(
        storyTitle: String, content: Content, position: String = "", soundStatus: String = "", notice: String? = nil,
        showHelp: Bool = false, confirmRestart: Bool = false, statsLines: [String]? = nil
    ) {
        self.storyTitle = storyTitle
        self.content = content
        self.position = position
        self.soundStatus = soundStatus
        self.notice = notice
        self.showHelp = showHelp
        self.confirmRestart = confirmRestart
        self.statsLines = statsLines
    }
}

/// A page as shown: its content, how many lines are revealed, the selected choice and its picture.
public struct PageView: Sendable {
    public var page: Page
    public var revealedLines: Int
    public var selectedChoice: Int
    public var picture: StoryImage?
    /// True when the page has a picture that is not loaded (shown as a small placeholder).
    public var pictureMissing: Bool
    /// Lines scrolled past (PgUp/PgDn on long pages).
    public var scroll: Int

    public init(page: Page, revealedLines: Int, selectedChoice: Int = 0, picture: StoryImage? = nil,
                pictureMissing: Bool = false, scroll: Int = 0) {
        self.page = page
        self.revealedLines = revealedLines
        self.selectedChoice = selectedChoice
        self.picture = picture
        self.pictureMissing = pictureMissing
        self.scroll = scroll
    }
}
