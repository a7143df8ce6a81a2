import Foundation
import PajamaModel
import PajamaJSON

/// One walk of `../shared/corpora/harlowe/walks/` (its README): a seeded path through a story recorded from
/// Harlowe 3's own engine in Chromium, page by page (the page's visible text, its links, the link clicked).
struct HarloweWalk: Decodable {
    struct Step: Decodable {
        var text: String
        var links: [String]
        /// The click before this page revealed a hook of the same passage (a `(link:)`, a `(click:)`).
        var samePassage: Bool
        /// The link clicked next; nil on the last page.
        var chosen: Int?

        enum CodingKeys: String, CodingKey {
            case text, links, chosen
            case samePassage = "same_passage"
        }
    }

    var story: String
    var seed: Int
    var end: String
    var steps: [Step]

    static func read(_ url: URL) throws -> HarloweWalk {
        try JSONValueDecoder().decode(HarloweWalk.self, from: Array(try Data(contentsOf: url)))
    }
}

/// What the two sides are compared on (docs/twine.md, "Agreement with Harlowe"): a page's words and the labels
/// it offers, normalised the same way on both sides.
///
/// - White space and line breaks do not count: the words are the text split at white space. Chromium's
///   innerText puts line breaks where the browser's blocks are (a `<div>`, a `<p>`, a `<br>`), Pajama where its
///   pages' lines are; the words are what the reader reads.
/// - A line holding only the page's link labels is left out: Harlowe shows a link in the text, Pajama shows a
///   line of links as its choices (docs/twine.md, "Pages") and not again in the text.
/// - A leading list bullet (`•`) is not a word: Chromium's innerText leaves out the marker of a `<li>`.
/// - A label's white space is collapsed (a link's text across lines is one label).
enum HarloweWalkText {
    /// The words of `text`, without its link-only lines and list bullets.
    static func words(_ text: String, labels: [String]) -> [String] {
        let known = Set(labels.map(label)).filter { !$0.isEmpty }.sorted { $0.count > $1.count }
        var words: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var rest = Substring(line).drop { $0.isWhitespace }
            if rest.hasPrefix("•") { rest = rest.dropFirst() }
            if isLinksOnly(String(rest), known) { continue }
            words += rest.split(whereSeparator: \.isWhitespace).map(String.init)
        }
        return words
    }

    /// A label with its white space collapsed.
    static func label(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The line is one or more of `labels` (longest first) and white space, and nothing else.
    static func isLinksOnly(_ line: String, _ labels: [String]) -> Bool {
        var rest = label(line)[...]
        guard !rest.isEmpty else { return false }
        while !rest.isEmpty {
            guard let found = labels.first(where: { rest.hasPrefix($0) }) else { return false }
            rest = rest.dropFirst(found.count).drop { $0 == " " }
        }
        return true
    }

    /// The text a beat shows the reader (its text pages' lines, then the choice page's prompt unless the page
    /// before ends with it), one line each, and its choices' labels. The title page is the story's, not the
    /// passage's.
    static func page(of beat: Beat) -> (text: String, labels: [String]) {
        var lines: [String] = []
        var labels: [String] = []
        for page in beat.pages {
            switch page.kind {
            case .title: continue
            case .text(let text): lines += text
            case .choice(let prompt, let choices):
                if let prompt, lines.last != prompt { lines.append(prompt) }
                labels = choices.map(\.text)
            case .question(let question):
                if let label = question.label, lines.last != label { lines.append(label) }
            }
        }
        return (lines.joined(separator: "\n"), labels)
    }

    /// The words a click added to the page (`before` to `after`): what is between their common start and end.
    static func added(_ before: [String], _ after: [String]) -> [String] {
        var start = 0
        while start < before.count, start < after.count, before[start] == after[start] { start += 1 }
        var end = 0
        while end < before.count - start, end < after.count - start, before[before.count - 1 - end] == after[after.count - 1 - end] { end += 1 }
        return Array(after[start..<(after.count - end)])
    }

    /// A few words around the first place where `a` and `b` differ, for the report.
    static func firstDifference(_ a: [String], _ b: [String]) -> (expected: String, got: String) {
        var index = 0
        while index < a.count, index < b.count, a[index] == b[index] { index += 1 }
        let from = max(0, index - 6)
        func excerpt(_ words: [String]) -> String {
            guard from < words.count else { return "(end)" }
            let part = words[from..<min(words.count, index + 14)].joined(separator: " ")
            return (from > 0 ? "... " : "") + part + (index + 14 < words.count ? " ..." : "")
        }
        return (excerpt(a), excerpt(b))
    }
}
