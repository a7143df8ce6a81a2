import PajamaCore
import PajamaImage

/// What the presenter asks the controller to do: the only things that touch the view model, the sound
/// engine, the theme files and the picture loads.
public enum ReaderEffect: Sendable, Equatable {
    /// A move through the story (`ReaderViewModel.changePage`).
    case move(PageMove)
    case retry, skip
    /// Restart the story from the beginning (confirmed).
    case restart
    /// Gather the pages read (`ReaderViewModel.backlog`); the controller answers `.backlog`.
    case openBacklog
    /// Go back to this entry of the reading history (`ReaderViewModel.goBack(toHistoryIndex:)`).
    case goBack(toHistoryIndex: Int)
    case setVolume(Int)
    /// Save a bookmark of the page shown under this name (`ReaderViewModel.saveBookmark`).
    case saveBookmark(name: String)
    /// Read the story's bookmarks (`ReaderViewModel.bookmarks`); the controller answers `.bookmarks`.
    case openBookmarks
    /// Go to a bookmark, with its history (`ReaderViewModel.open`).
    case openBookmark(Bookmark)
    case toggleMute
    /// Turn read aloud on or off; the controller answers with a notice saying which.
    case toggleReadAloud
    /// Load and apply the theme named so, and remember it; the controller answers `.themeApplied`.
    case applyTheme(String)
    /// The reader left the page it was on: the picture work started for that page is cancelled.
    case leavePage
    /// Load the picture at this path for the page on screen; the controller answers `.pictureLoaded` or
    /// `.pictureFailed`.
    case loadPicture(AssetPath)
    /// Render `image` into cells for `key`; the controller answers `.pictureCells` (after a `.pictureDraft`
    /// when the final cells take longer than a draft).
    case requestPicture(PictureCache.Key, StoryImage)
    case quit
}
