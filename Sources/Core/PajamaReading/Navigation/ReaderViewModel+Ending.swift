import FoundationEssentials
import Glibc
import PajamaBasics

extension ReaderViewModel {
    /// The most beats loaded to count the endings; a longer list is left uncounted.
    static let endingsCountLimit = 2000

    /// Past the last page of an ending: the end screen. The ending is remembered among the endings found,
    /// the progress written at once, and the story's endings counted if they are not yet.
    func finish(_ page: PageState, on visit: PageVisit) async {
        record.reachEnding(page.beat.id)
        sounds.stopBackgroundSound()
        navigation.finish(page, record.endSummary, on: visit)
        save(page.location)
        countEndings(on: visit)
        await flushProgress()
    }

    /// Counts the story's endings in a task of `visit` (leaving the page cancels it; the next ending tries
    /// again), then shows the total on the end screen if it is still up.
    private func countEndings(on visit: PageVisit) {
        guard record.endingsCount == .unknown else { return }
        guard let listed = manifest.beats, listed.count <= Self.endingsCountLimit else {
            record.endingsCount = .counted(nil)
            return
        }
        record.endingsCount = .counting
        let started = visit.run { [weak self] in
            guard let self else { return }
            var total: Int? = 0
            for id in listed {
                var beat = content.resident.beat(id)
                if beat == nil { beat = try? await content.loadBeat(id) }
                guard !Task.isCancelled else {
                    record.endingsCount = .unknown
                    return
                }
                guard let beat else {
                    total = nil  // a listed beat that cannot be read: the total is not known
                    break
                }
                if beat.isEnding { total? += 1 }
            }
            record.endingsCount = .counted(total)
            navigation.update(record.endSummary, on: visit)
        }
        if !started { record.endingsCount = .unknown }
    }
}
