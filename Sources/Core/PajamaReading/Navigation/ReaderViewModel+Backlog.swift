import PajamaModel

/// One page of the backlog: where it is in the history, what it said (as far as it was read) and the
/// choice taken on it.
public struct BacklogEntry: Sendable, Equatable {
    /// Its index in the reading history (going back to it is a back move to this index).
    public var historyIndex: Int
    public var location: StoryLocation
    /// The page's text as it was read: a title page's title and subtitle, a text page's revealed lines, a
    /// choice page's prompt; a line saying so when the beat could not be read.
    public var lines: [String]
    /// The text of the choice taken on this page, if it is a choice page that was left by a choice.
    public var choice: String?

    public init(historyIndex: Int, location: StoryLocation, lines: [String], choice: String? = nil) {
        self.historyIndex = historyIndex
        self.location = location
        self.lines = lines
        self.choice = choice
    }
}

extension ReaderViewModel {
    /// The most pages the backlog shows.
    public static let backlogLimit = 250

    /// The pages read up to the current one (this session's and the saved history's), oldest first, at
    /// most `limit`. Beats no longer kept with the history are read through the content's caches.
    public func backlog(limit: Int = ReaderViewModel.backlogLimit) async -> [BacklogEntry] {
        let entries = history.entries
        guard history.current != nil else { return [] }
        let current = history.cursor
        let first = max(0, current + 1 - limit)
        var beats: [String: Beat?] = [:]  // each beat read once; nil: it could not be
        var result: [BacklogEntry] = []
        for index in first...current {
            let entry = entries[index]
            let id = entry.location.beatId
            if beats[id] == nil {
                var beat = entry.beat
                if beat == nil { beat = content.resident.beat(id) }
                if beat == nil { beat = try? await content.loadBeat(id) }
                beats[id] = .some(beat)
            }
            guard let page = beats[id]??.page(withId: entry.location.pageId) else {
                result.append(BacklogEntry(historyIndex: index, location: entry.location, lines: ["(beat \(id) could not be read)"]))
                continue
            }
            // A restored entry does not know its choice: the next page's beat tells which was taken.
            let next = entries.indices.contains(index + 1) ? entries[index + 1].location.beatId : nil
            let choice = entry.choice ?? page.choices.first { $0.targetBeatId == next }?.text
            result.append(BacklogEntry(historyIndex: index, location: entry.location, lines: Self.text(of: page, upTo: entry.location.lineIndex),
                                       choice: page.choices.isEmpty ? nil : choice))
        }
        return result
    }

    /// Goes back to the page at `historyIndex` of the history (an entry before the current one), as a
    /// back move does.
    public func goBack(toHistoryIndex index: Int) async {
        guard navigation.isSettled, let entry = record.back(to: index) else { return }
        await enter(Entry(target: .location(entry.location), beatHint: entry.beat, recordInHistory: false, choiceSound: nil))
    }

    /// What a page said, up to line `lineIndex` of a text page.
    static func text(of page: Page, upTo lineIndex: Int) -> [String] {
        switch page.kind {
        case .title(let title, let subtitle): [title] + (subtitle.map { [$0] } ?? [])
        case .text(let lines): Array(lines.prefix(max(1, lineIndex + 1)))
        case .choice(let prompt, _): prompt.map { [$0] } ?? []
        case .question(let question): question.label.map { [$0] } ?? []
        }
    }
}
