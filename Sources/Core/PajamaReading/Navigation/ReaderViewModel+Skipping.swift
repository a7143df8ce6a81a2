extension ReaderViewModel {
    /// The most pages one `>` goes through (a story that loops through seen pages without a choice stops here).
    static let skipLimit = 1000

    /// `>`: leaves the page shown and goes on through the pages seen before (in any session), without
    /// their line-by-line reveal: it stops on the first page not seen yet (its first line shown), a choice
    /// page, the end screen, or a move that fails. Nothing happens on a choice page. Each page passed is
    /// recorded in the history fully read, so back and the backlog show it whole.
    func skipSeen() async {
        for _ in 0..<Self.skipLimit {
            guard let (shown, visit) = navigation.page, shown.page.choices.isEmpty, shown.page.question == nil else { return }
            var page = shown
            if case .text(let lines) = page.page.kind, page.revealedLines < lines.count {
                page.revealedLines = lines.count
                page.location.lineIndex = lines.count - 1
                record.updateCurrent(page.location)
            }
            await goForward(from: page, on: visit)
            guard let (next, _) = navigation.page, next.standing.seenBefore, next.page.choices.isEmpty, next.page.question == nil else { return }
        }
    }
}
