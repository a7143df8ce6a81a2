/// What a page shown again after a change keeps of the visit before (see `ReaderViewModel.reload`).
struct ReloadedPage {
    /// The page's index in its beat before the change: where the nearest page is when the page is gone.
    var pageIndex: Int
    /// Whether the page had been seen before the visit the change interrupted.
    var seenBefore: Bool
}

extension ReaderViewModel {
    /// The story's files changed (`pajama read FOLDER --watch`), and the content has dropped what changed
    /// from its caches (`StoryContentManager.reload`): the page shown is entered again, on the same beat and
    /// page, as far into it as it was (its new text, picture and critical assets), without counting as a
    /// page read or playing its page-enter sounds. A page no longer in its beat falls back to the page now at
    /// its place, else the beat's last; a beat that no longer loads shows its error (back and retry work
    /// as after any failed move; the next change tries again). The kept content of `beats` (nil: every
    /// beat) in the history is dropped, so back reads them again. During a move nothing is done: the move
    /// reads what is there now.
    public func reload(beats: Set<String>?) async {
        record.forgetContent(of: beats)
        if let page = navigation.shownPage {
            let again = ReloadedPage(pageIndex: page.pageIndex, seenBefore: page.standing.seenBefore)
            await enter(Entry(target: .location(page.location), beatHint: nil, recordInHistory: false, choiceSound: nil, reload: again))
        } else if navigation.failure != nil {
            await retry()
        }
    }
}
