import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaModel

/// Where a move goes before its beat is known.
enum EntryTarget: Equatable {
    case location(StoryLocation)
    case beatStart(String)
}

/// One move: where to, what is known already, and what it does on arrival.
struct Entry {
    var target: EntryTarget
    var beatHint: Beat?
    var recordInHistory: Bool
    var choiceSound: (AssetPath, Int)?
    /// The choice this move takes: counted and published (`.choiceTaken`) when the move commits.
    var choice: TakenChoice? = nil
    /// The page shown again because the story's files changed (ReaderViewModel+Reloading.swift): not a new
    /// page read, no page-enter sounds, the same standing.
    var reload: ReloadedPage? = nil
}

/// One move under way. The phase holds it (`.entering`, `.failed`); a step that finds its attempt is no
/// longer the phase's stops, so a superseded move never changes what is shown.
@MainActor
final class Attempt {
    let entry: Entry
    /// The page visit the move leaves: it goes on (its sounds may still play) until the move commits
    /// another page, and ends then.
    let leaving: PageVisit?

    init(_ entry: Entry, leaving: PageVisit?) {
        self.entry = entry
        self.leaving = leaving
    }
}

extension ReaderViewModel {
    typealias Target = EntryTarget

    private func isCurrent(_ attempt: Attempt) -> Bool { navigation.isCurrent(attempt) }

    /// Whether back leads somewhere from the failure of `entry` (see `back`): to the page a forward move
    /// left, or further back after a failed move back.
    private func canGoBack(afterFailing entry: Entry) -> Bool {
        entry.recordInHistory ? history.current != nil : history.canGoBack
    }

    func enter(_ entry: Entry, skipAssets: Bool = false, resolvingInvalid: Bool = false) async {
        guard let attempt = navigation.begin(entry) else { return }
        let beatId: String
        switch entry.target {
        case .location(let l): beatId = l.beatId
        case .beatStart(let id): beatId = id
        }
        // Choice sounds play at the choice, if loaded; else once loaded, if the reader is still where it led.
        var choiceSoundToLoad: (AssetPath, Int)?
        if let (path, index) = entry.choiceSound, !skipAssets {
            if !(await sounds.play(path, cue: .choice(index))) { choiceSoundToLoad = (path, index) }
        }
        var beat: Beat? = entry.beatHint?.id == beatId ? entry.beatHint : nil
        if beat == nil { beat = beatInMemory(beatId) }
        guard isCurrent(attempt) else { return }
        if beat == nil {
            navigation.wait(attempt, at: placeholderLocation(entry.target), for: [.beat(beatId)])
            do {
                beat = try await content.loadBeat(beatId)
            } catch {
                guard isCurrent(attempt) else { return }
                if resolvingInvalid, beatId != manifest.startBeatId, error.kind == .notFound || error.kind == .invalidFormat {
                    await resolveInvalid(beatId, for: attempt)
                    return
                }
                navigation.fail(attempt, ReaderFailure(error: error, location: placeholderLocation(entry.target), canSkip: false,
                                            canGoBack: canGoBack(afterFailing: entry)))
                return
            }
            guard isCurrent(attempt) else { return }
        }
        guard let beat, !beat.pages.isEmpty else { return }
        let (location, pageIndex) = landing(of: entry.target, in: beat, resolvingInvalid: resolvingInvalid, reload: entry.reload)
        let page = beat.pages[pageIndex]
        tellContentReaderMoved(to: location)
        if !skipAssets {
            let needsWait = !criticalAssetsInMemory(for: location, in: beat)
            guard isCurrent(attempt) else { return }
            if needsWait {
                navigation.wait(attempt, at: location, for: page.assetReferences(beatId: beat.id).map { $0.role.isSound ? .sound($0.path) : .image($0.path) })
                do {
                    try await content.loadCriticalAssets(for: location, in: beat)
                } catch {
                    navigation.fail(attempt, ReaderFailure(error: error, location: location, canSkip: true, canGoBack: canGoBack(afterFailing: entry)))
                    return
                }
                guard isCurrent(attempt) else { return }
            }
        }
        // Commit the move: recorded, and shown on a new page visit; the one the move left ends (its pending
        // sounds and pictures are cancelled).
        let standing = record.enter(location, beat: beat, newEntry: entry.recordInHistory, choice: entry.choice, reload: entry.reload,
                                    beatsListed: manifest.beats?.count)
        let pageState = PageState(beat: beat, page: page, location: location, pageIndex: pageIndex, revealedLines: location.lineIndex + 1,
                                  canGoBack: history.canGoBack, isEnding: pageIndex == beat.pages.count - 1 && beat.isEnding,
                                  standing: standing)
        if let choice = entry.choice { emit(.choiceTaken(choice)) }
        guard let visit = navigation.arrive(attempt, at: pageState) else { return }
        save(location)
        guard entry.reload == nil else { return }  // the same page again: no new entry, no page-enter sounds
        emit(.pageEntered(location))
        sounds.playPageEnterSounds(of: page, on: visit)
        sounds.applyBackgroundSound(of: page, on: visit)
        if let (path, index) = choiceSoundToLoad { sounds.loadThenPlay(path, cue: .choice(index), on: visit) }
    }

    /// The beat if it is in memory: answered at once from the content's resident view (a move to cached
    /// content never leaves the main actor: no hop to the content's actor and back before the page is shown).
    private func beatInMemory(_ id: String) -> Beat? { content.resident.beat(id) }

    /// Whether the page's critical assets are loaded (the gate), answered like `beatInMemory`.
    private func criticalAssetsInMemory(for location: StoryLocation, in beat: Beat) -> Bool {
        content.resident.criticalAssetsLoaded(for: location, in: beat)
    }

    /// Where an entry arrives in `beat`: the location (its line the one to reveal up to) and the page's index.
    /// A page no longer in the beat falls back to its first page, a line no longer on the page to its first line.
    /// A page shown again after a change (`reload`) whose page is gone falls back to the page now at its
    /// index (the nearest), else the beat's last page; its revealed lines are kept as far as the page has them.
    private func landing(of target: Target, in beat: Beat, resolvingInvalid: Bool, reload: ReloadedPage? = nil) -> (StoryLocation, Int) {
        var location: StoryLocation
        switch target {
        case .beatStart: location = StoryLocation(beatId: beat.id, pageId: beat.pages[0].id)
        case .location(let l): location = l
        }
        var pageIndex = beat.pageIndex(of: location.pageId) ?? 0
        if let reload, beat.pageIndex(of: location.pageId) == nil {
            pageIndex = min(reload.pageIndex, beat.pages.count - 1)
            emit(.notice("page \(location.pageId) is no longer in beat \(beat.id); showing page \(beat.pages[pageIndex].id)"))
            location = StoryLocation(beatId: beat.id, pageId: beat.pages[pageIndex].id, lineIndex: location.lineIndex)
        }
        if reload != nil, case .text(let lines) = beat.pages[pageIndex].kind, manifest.lineByLine {
            location.lineIndex = max(0, min(location.lineIndex, lines.count - 1))
        }
        if beat.pageIndex(of: location.pageId) == nil {
            emit(.notice("page \(location.pageId) is no longer in beat \(beat.id); showing the beat's first page"))
            location = StoryLocation(beatId: beat.id, pageId: beat.pages[0].id)
            pageIndex = 0
        }
        if case .text(let lines) = beat.pages[pageIndex].kind {
            if revealsLineByLine {
                if location.lineIndex >= lines.count || location.lineIndex < 0 {
                    if resolvingInvalid { emit(.notice("the saved line is no longer on this page; showing its first line")) }
                    location.lineIndex = 0
                }
            } else {
                location.lineIndex = lines.count - 1
            }
        } else {
            location.lineIndex = 0
        }
        return (location, pageIndex)
    }

    /// The story changed under the saved place (its beat `missing` is gone): go to the nearest earlier place
    /// that still exists, else to the story's start.
    private func resolveInvalid(_ missing: String, for attempt: Attempt) async {
        if let (index, location) = await nearestValidEntry(excluding: missing) {
            guard isCurrent(attempt) else { return }
            emit(.notice("the saved place (beat \(missing)) is no longer in this story; going back to beat \(location.beatId)"))
            record.restoreHistory(Array(history.locations.prefix(index)))
            await enter(Entry(target: .location(location), beatHint: nil, recordInHistory: true, choiceSound: nil), resolvingInvalid: true)
            return
        }
        guard isCurrent(attempt) else { return }
        emit(.notice("the saved place (beat \(missing)) is no longer in this story; starting from the beginning"))
        record.clearHistory()
        await enter(Entry(target: .beatStart(manifest.startBeatId), beatHint: nil, recordInHistory: true, choiceSound: nil))
    }

    /// The most recent history entry (index and location) whose beat still exists, looking back at most
    /// `contentKeptFor` distinct beats; beats story.json no longer lists are skipped without I/O.
    private func nearestValidEntry(excluding missing: String) async -> (Int, StoryLocation)? {
        var tried: Set<String> = [missing]
        for (index, location) in history.locations.enumerated().reversed() where tried.insert(location.beatId).inserted {
            if tried.count > max(1, history.contentKeptFor) + 1 { break }
            if let listed = manifest.beats, !listed.contains(location.beatId) { continue }
            if (try? await content.loadBeat(location.beatId)) != nil { return (index, location) }
        }
        return nil
    }

    private func placeholderLocation(_ target: Target) -> StoryLocation {
        switch target {
        case .location(let l): l
        case .beatStart(let id): StoryLocation(beatId: id, pageId: "")
        }
    }
}
