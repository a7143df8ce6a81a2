import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaModel
import PajamaStorage

/// Where a reader stands in one story of the library: where they are, the endings found of how many, and
/// when they last read it. Worked out from the saved progress (never from the count of pages turned, which
/// grows on every reopen and every step back) and, for a story package on disk, its beat files.
public struct LibraryStanding: Sendable, Equatable {
    /// "new", "finished", `at “Chapter”`, "35% seen" or "6 pages seen".
    public var place: String
    public var endingsFound: Int
    /// The story's endings, when they could be counted (a package on disk listing its beats).
    public var endingsTotal: Int?
    /// When the progress was last saved; nil for a story never opened.
    public var lastRead: Date?

    public init(place: String, endingsFound: Int = 0, endingsTotal: Int? = nil, lastRead: Date? = nil) {
        self.place = place
        self.endingsFound = endingsFound
        self.endingsTotal = endingsTotal
        self.lastRead = lastRead
    }

    /// The most beat files read to count a story's endings and pages (a longer story says "N pages seen").
    public static let beatLimit = 500

    /// The standing for `saved` progress of the story `manifest` describes; `beats` reads a beat of a
    /// package on disk (nil for a story made as it is read: ink, Twine).
    public static func of(
        _ saved: ReadingProgress?, lastRead: Date?, manifest: StoryManifest, beats: ((String) -> Beat?)?
    ) -> LibraryStanding {
        guard let saved else { return LibraryStanding(place: "new") }
        let found = saved.endingsFound?.count ?? (saved.finished ? 1 : 0)
        var total: Int?
        var pages: Set<SeenPage>?
        if let beats, let listed = manifest.beats, listed.count <= beatLimit {
            var endings = 0
            var all = Set<SeenPage>()
            for id in listed {
                guard let beat = beats(id) else {
                    all = []
                    endings = -1
                    break
                }
                if beat.isEnding { endings += 1 }
                for page in beat.pages { all.insert(SeenPage(beat: id, page: page.id)) }
            }
            if endings >= 0 {
                total = endings
                pages = all
            }
        }
        let place: String
        if saved.finished {
            place = "finished"
        } else if let beats, let chapter = chapter(at: saved, manifest: manifest, beats: beats) {
            place = "at “\(chapter)”"
        } else {
            let seen = Set(saved.seenPages ?? []).union([SeenPage(saved.location)])
            if let pages, !pages.isEmpty {
                let share = Double(seen.intersection(pages).count) / Double(pages.count)
                place = "\(max(1, min(100, Int((share * 100).rounded()))))% seen"
            } else {
                place = seen.count == 1 ? "1 page seen" : "\(seen.count) pages seen"
            }
        }
        return LibraryStanding(place: place, endingsFound: found, endingsTotal: total, lastRead: lastRead)
    }

    /// The title of the chapter the reader is in: the last title page at or before their page, in their
    /// beat or the beats before it in their history (the story's own title page does not count).
    static func chapter(at saved: ReadingProgress, manifest: StoryManifest, beats: (String) -> Beat?) -> String? {
        var looked = Set<String>()
        for location in ([saved.location] + saved.history.reversed()).prefix(50) where looked.insert(location.beatId).inserted {
            guard let beat = beats(location.beatId) else { continue }
            let end = location == saved.location ? (beat.pageIndex(of: location.pageId) ?? beat.pages.count - 1) : beat.pages.count - 1
            guard end >= 0 else { continue }
            for page in beat.pages[...end].reversed() {
                if case .title(let title, _) = page.kind {
                    let trimmed = title.trimmingWhitespace
                    return trimmed.isEmpty || trimmed == manifest.title ? nil : trimmed
                }
            }
        }
        return nil
    }

    /// "1 of 2 endings", "1 ending found", or nil before the first.
    public var endings: String? {
        if let endingsTotal, endingsTotal > 0 { return "\(endingsFound) of \(endingsTotal) ending\(endingsTotal == 1 ? "" : "s")" }
        guard endingsFound > 0 else { return nil }
        return endingsFound == 1 ? "1 ending found" : "\(endingsFound) endings found"
    }

    /// When it was last read, as a person says it: "just now", "5 min ago", "3 h ago", "yesterday",
    /// "4 days ago", then the date ("2 Dec 2026"); nil when never read.
    public func lastReadText(now: Date) -> String? {
        guard let lastRead else { return nil }
        let seconds = now.timeIntervalSince(lastRead)
        if seconds < 60 { return "just now" }
        if seconds < 3600 { return "\(Int(seconds / 60)) min ago" }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = LocalTime.zone(at: now)
        let days = calendar.dateComponents([.day], from: calendar.startOfDay(for: lastRead), to: calendar.startOfDay(for: now)).day ?? 0
        if days <= 0 { return "\(Int(seconds / 3600)) h ago" }
        if days == 1 { return "yesterday" }
        if days < 7 { return "\(days) days ago" }
        let read = calendar.dateComponents([.year, .month, .day], from: lastRead)
        return "\(read.day ?? 1) \(LocalTime.monthAbbreviations[((read.month ?? 1) - 1) % 12]) \(read.year ?? 0)"
    }
}
