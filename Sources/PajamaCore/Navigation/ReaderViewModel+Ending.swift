import Foundation

/// How many ending beats the story has: counted once per session, the first time an ending is reached,
/// from the beats story.json lists (a story that does not list them has no known total).
enum EndingsCount: Equatable {
    case unknown
    /// A task of the end screen's page visit is loading the listed beats.
    case counting
    /// The total, or nil when it cannot be known (no list in story.json, a listed beat unreadable).
    case counted(Int?)
}

extension ReaderViewModel {
    /// The most beats loaded to count the endings; a longer list is left uncounted.
    static let endingsCountLimit = 2000

    /// Past the last page of an ending: the end screen. The ending is remembered among the endings found,
    /// the progress written at once, and the story's endings counted if they are not yet.
    func finish(_ page: PageState, on visit: PageVisit) async {
        finishedOnce = true
        stopBackgroundSound()
        if !endingsFound.contains(page.beat.id) { endingsFound.append(page.beat.id) }
        phase = .finished(page, endSummary, visit)
        save(page.location)
        countEndings(on: visit)
        await flushProgress()
    }

    /// The end screen's figures as they stand.
    var endSummary: EndSummary {
        let total: Int? = if case .counted(let total) = endingsCount { total } else { nil }
        return EndSummary(pagesRead: pagesRead, choicesMade: choicesMade, endingsFound: endingsFound.count, endingsTotal: total)
    }

    /// Counts the story's endings in a task of `visit` (leaving the page cancels it; the next ending tries
    /// again), then shows the total on the end screen if it is still up.
    private func countEndings(on visit: PageVisit) {
        guard endingsCount == .unknown else { return }
        guard let listed = manifest.beats, listed.count <= Self.endingsCountLimit else {
            endingsCount = .counted(nil)
            return
        }
        endingsCount = .counting
        let started = visit.run { [weak self] in
            guard let self else { return }
            var total: Int? = 0
            for id in listed {
                var beat = await content.cachedBeat(id)
                if beat == nil { beat = try? await content.loadBeat(id) }
                guard !Task.isCancelled else {
                    endingsCount = .unknown
                    return
                }
                guard let beat else {
                    total = nil  // a listed beat that cannot be read: the total is not known
                    break
                }
                if beat.isEnding { total? += 1 }
            }
            endingsCount = .counted(total)
            if case .finished(let page, _, let shown) = phase, shown === visit { phase = .finished(page, endSummary, shown) }
        }
        if !started { endingsCount = .unknown }
    }
}
