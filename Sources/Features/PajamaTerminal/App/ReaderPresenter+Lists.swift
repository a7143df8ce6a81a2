import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaReading
import PajamaStorage

extension ReaderPresenter {
    /// A key while a list is open: ↑ ↓ (`k` `j`) and PgUp PgDn move the selection; Enter takes the selected
    /// item (the backlog: goes back to that page, a back move, or only closes on the current page; the
    /// bookmarks: opens it); Esc, `q` and the key that opened the list close it.
    mutating func handleList(_ key: Key) -> [ReaderEffect] {
        switch mode {
        case .backlog(var list, let entries):
            if list.move(key) {
                mode = .backlog(list, entries)
                return []
            }
            if key == .enter {
                mode = .reading
                guard entries.indices.contains(list.selected), list.selected < entries.count - 1, mayNavigate() else { return [] }
                return [.goBack(toHistoryIndex: entries[list.selected].historyIndex)]
            }
        case .bookmarks(var list, let bookmarks):
            if list.move(key) {
                mode = .bookmarks(list, bookmarks)
                return []
            }
            if key == .enter {
                mode = .reading
                guard bookmarks.indices.contains(list.selected), mayNavigate() else { return [] }
                return [.openBookmark(bookmarks[list.selected])]
            }
        default:
            return []
        }
        if [.escape, .character("q"), .character("b"), .character("o")].contains(key) { mode = .reading }
        return []
    }

    /// The longest bookmark name, in characters.
    static let bookmarkNameLimit = 80

    /// A key while the bookmark's name is asked: the field starts empty with the page's first words as its
    /// hint; typed characters and the line-editing keys edit it (`NameField`), Enter saves (an empty name:
    /// the hint), Esc cancels.
    mutating func handleName(_ key: Key, _ field: NameField) -> [ReaderEffect] {
        var field = field
        switch key {
        case .enter:
            mode = .reading
            return [.saveBookmark(name: field.value)]
        case .escape:
            mode = .reading
            return []
        default:
            if field.edit(key) { mode = .nameBookmark(field) }
            return []
        }
    }

    /// The backlog arrived (after `openBacklog`): it opens, the newest page selected, unless another
    /// overlay took the screen meanwhile.
    mutating func openBacklog(_ entries: [BacklogEntry]) {
        guard mode == .reading else { return }
        guard !entries.isEmpty else {
            notice = "nothing read yet"
            return
        }
        let items = entries.map { entry in entry.lines + (entry.choice.map { ["→ " + $0] } ?? []) }
        let list = PickList(heading: "Backlog · ↑ ↓ choose · Enter go back there · Esc close", items: items, selected: entries.count - 1)
        mode = .backlog(list, entries)
    }

    /// The bookmarks and autosaves arrived (after `openBookmarks`): they open on the newest named bookmark
    /// (the list is the named ones, then the autosaves), or the newest autosave when none is named.
    mutating func openBookmarks(_ bookmarks: [Bookmark]) {
        guard mode == .reading else { return }
        guard !bookmarks.isEmpty else {
            notice = "no bookmarks yet (s saves one)"
            return
        }
        let items = bookmarks.map { mark in
            [mark.name, "  " + mark.firstWords + " · " + Bookmark.timeText(mark.savedAt)]
        }
        let named = bookmarks.lastIndex { !Bookmark.isAutosaveName($0.name) }
        let list = PickList(heading: "Bookmarks · ↑ ↓ choose · Enter open · Esc close", items: items, selected: named ?? bookmarks.count - 1)
        mode = .bookmarks(list, bookmarks)
    }
}
