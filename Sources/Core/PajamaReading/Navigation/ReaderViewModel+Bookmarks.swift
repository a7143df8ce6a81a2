import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaStorage

extension ReaderViewModel {
    /// Saves a bookmark of the page shown (named `name`, else the page's first words); nothing on other
    /// screens (an error, loading). Written behind the reader; says "bookmarked NAME" or the problem.
    public func saveBookmark(name: String? = nil) {
        guard let bookmark = bookmarkHere(name: name) else { return }
        record.saveBookmark(bookmark)
    }

    /// The story's bookmarks, then its autosaves (oldest first), read after every write handed over before
    /// (a bookmark just saved is there); a broken file is moved aside and said.
    public func bookmarks() async -> [Bookmark] {
        await record.bookmarks()
    }

    /// Opens a bookmark: its place, with its history (the saved progress is replaced from there on).
    public func open(_ bookmark: Bookmark) async {
        guard navigation.isSettled else { return }
        if let origin = bookmark.origin, case .failed(let reason) = await content.restore(origin) {
            emit(.notice(reason))
            return
        }
        record.restoreHistory(Array(bookmark.history.dropLast()))
        await enter(Entry(target: .location(bookmark.location), beatHint: nil, recordInHistory: true, choiceSound: nil))
    }

    /// Autosaves the page shown (before a choice), named by its time.
    func autosave() {
        // Nowhere to keep it (`pajama play`, the bench): not built at all (it copies the history).
        guard record.keepsBookmarks, let bookmark = bookmarkHere(name: "autosave " + Bookmark.timeText(Date(), seconds: true)) else { return }
        record.autosave(bookmark)
    }

    private func bookmarkHere(name: String?) -> Bookmark? {
        guard let (page, _) = navigation.page else { return nil }
        let words = Bookmark.firstWords(of: page.page)
        let name = name ?? (words.isEmpty ? "\(page.location.beatId) \(page.location.pageId)" : words)
        return Bookmark(name: name, location: page.location, history: history.locations.prefix(history.cursor + 1).map { $0 },
                        firstWords: words, savedAt: Date(), origin: page.beat.origin)
    }
}
