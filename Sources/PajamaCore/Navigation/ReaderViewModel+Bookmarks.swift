import Foundation

/// A bookmark or autosave to write, in order, behind the reader; or a read of the file after the writes
/// handed over before it.
enum BookmarkWrite: Sendable {
    case bookmark(Bookmark)
    case autosave(Bookmark)
    case read(CheckedContinuation<[Bookmark], Never>)
}

extension ReaderViewModel {
    /// Saves a bookmark of the page shown (named `name`, else the page's first words); nothing on other
    /// screens (an error, loading). Written behind the reader; says "bookmarked NAME" or the problem.
    public func saveBookmark(name: String? = nil) {
        guard let bookmark = bookmarkHere(name: name) else { return }
        bookmarkWrites.yield(.bookmark(bookmark))
    }

    /// The story's bookmarks, then its autosaves (oldest first), read after every write handed over before
    /// (a bookmark just saved is there); a broken file is moved aside and said.
    public func bookmarks() async -> [Bookmark] {
        await withCheckedContinuation { reply in
            if case .terminated = bookmarkWrites.yield(.read(reply)) { reply.resume(returning: []) }  // closed
        }
    }

    /// Opens a bookmark: its place, with its history (the saved progress is replaced from there on).
    public func open(_ bookmark: Bookmark) async {
        switch phase {
        case .page, .finished, .failed: break
        case .idle, .entering, .closed: return
        }
        if let origin = bookmark.origin, case .failed(let reason) = await content.restore(origin) {
            emit(.notice(reason))
            return
        }
        history.restore(Array(bookmark.history.dropLast()))
        await enter(Entry(target: .location(bookmark.location), beatHint: nil, recordInHistory: true, choiceSound: nil))
    }

    /// Autosaves the page shown (before a choice), named by its time.
    func autosave() {
        // Nowhere to keep it (`pajama play`, the bench): not built at all (it copies the history).
        guard keepsBookmarks, let bookmark = bookmarkHere(name: "autosave " + Bookmark.timeText(Date(), seconds: true)) else { return }
        bookmarkWrites.yield(.autosave(bookmark))
    }

    private func bookmarkHere(name: String?) -> Bookmark? {
        guard case .page(let page, _) = phase else { return nil }
        let words = Bookmark.firstWords(of: page.page)
        let name = name ?? (words.isEmpty ? "\(page.location.beatId) \(page.location.pageId)" : words)
        return Bookmark(name: name, location: page.location, history: history.locations.prefix(history.cursor + 1).map { $0 },
                        firstWords: words, savedAt: Date(), origin: page.beat.origin)
    }

    /// The task that writes bookmarks in order, off the main actor; a problem (or "bookmarked NAME") is
    /// told on the view model's events.
    static func bookmarkWriter(_ store: BookmarkStore?, storyId: String, writes: AsyncStream<BookmarkWrite>,
                               hub: EventHub<ReaderEvent>) -> Task<Void, Never> {
        Task.detached {
            for await write in writes {
                guard let store else {
                    if case .read(let reply) = write { reply.resume(returning: []) }
                    continue
                }
                switch write {
                case .read(let reply):
                    let (file, warning) = store.load(storyId: storyId)
                    if let warning { hub.publish(.notice(warning)) }
                    reply.resume(returning: file.bookmarks + file.autosaves)
                case .bookmark(let bookmark):
                    hub.publish(.notice(store.save(bookmark, storyId: storyId) ?? "bookmarked \"\(bookmark.name)\""))
                case .autosave(let bookmark):
                    if let problem = store.autosave(bookmark, storyId: storyId) { hub.publish(.notice(problem)) }
                }
            }
        }
    }
}
