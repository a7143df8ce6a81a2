import PajamaModel
import PajamaReading
import PajamaStorage
import PajamaImage

/// What the presenter asks the controller to do: the only things that touch the view model, the sound
/// engine, the theme files and the picture loads. Each answer comes back as a `ReaderPresenter.Event`.
public enum ReaderEffect: Sendable, Equatable {
    /// A move through the story (`ReaderViewModel.changePage`).
    case move(PageMove)
    case retry, skip
    /// Restart the story from the beginning (confirmed).
    case restart
    /// Ask the story for its status page at beat `beatId` (`StatusPageSource`); the controller answers `.statusPage`.
    case openStatus(beatId: String)
    /// Gather the pages read (`ReaderViewModel.backlog`); the controller answers `.backlog`.
    case openBacklog
    /// Go back to this entry of the reading history (`ReaderViewModel.goBack(toHistoryIndex:)`).
    case goBack(toHistoryIndex: Int)
    /// Enter the page shown again from what the story's files hold now (`--watch`: `ReaderViewModel.reload`).
    case reload(beats: Set<String>?)
    /// Read the story's bookmarks (`ReaderViewModel.bookmarks`); the controller answers `.bookmarks`.
    case openBookmarks
    /// Go to a bookmark, with its history (`ReaderViewModel.open`).
    case openBookmark(Bookmark)
    /// The work under way (a move waiting on a load) stops waiting: it fails as cancelled, and nothing it
    /// loads is shown. The controller answers `.workFinished` when it has.
    case cancelWork
    case setVolume(Int)
    /// Save a bookmark of the page shown under this name (`ReaderViewModel.saveBookmark`).
    case saveBookmark(name: String)
    case toggleMute
    /// Timed text on or off (`w`): the view model reveals pages whole while it is off; remembered.
    case setTimedText(Bool)
    /// Turn read aloud on or off.
    case setReadAloud(Bool)
    /// Captions of sounds turned on or off (`c`): remembered in the reader's settings.
    case setCaptions(Bool)
    /// Say this now (`v` turning read aloud on says the page on screen; `V` the current line), on or off.
    case speak(String)
    /// Load and apply the theme named so, and remember it; the controller answers `.themeApplied`.
    case applyTheme(String)
    /// The reader left the page it was on: the work started for that page visit is cancelled.
    case leavePage
    /// Ask the loading engine whether every page reading can go to from this page is loaded with its
    /// critical assets; the controller answers `.nextPagesReady`.
    case checkNextPages(PageState)
    /// Load the picture at this path for the page on screen; the controller answers `.pictureLoaded` or
    /// `.pictureFailed`.
    case loadPicture(AssetPath)
    /// Render `image` into cells for `key`; the controller answers `.pictureCells` (after a `.pictureDraft`
    /// when the final cells take longer than a draft).
    case requestPicture(PictureCache.Key, StoryImage)
    /// A follower's vote for a choice of the owner's page at this location (a session that takes votes).
    case vote(StoryLocation, Int)
    case quit

    /// Whether the effect is work on the view model that keys wait behind (one at a time, in order): the
    /// controller answers `.workFinished` when it is done.
    public var isWork: Bool {
        switch self {
        case .move, .retry, .skip, .restart, .openBacklog, .goBack, .reload, .openBookmarks, .openBookmark: true
        default: false
        }
    }
}
