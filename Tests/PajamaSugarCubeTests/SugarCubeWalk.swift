import Foundation
import PajamaModel
import PajamaJSON

/// One walk of `Tests/Fixtures/sugarcube-walks/` (its README): a seeded path through a story of the SugarCube
/// corpus recorded from SugarCube's own engine in Chromium, page by page (the visible text of `#passages`, its
/// links, the link clicked, the passage, SugarCube's error boxes).
struct SugarCubeWalk: Decodable {
    struct Step: Decodable {
        var text: String
        var links: [String]
        var errors: [String]
        var passage: String?
        /// The click before this page stayed in the same passage (a `<<linkreplace>>`, a `<<link>>` without one).
        var samePassage: Bool
        /// The link clicked next; nil on the last page.
        var chosen: Int?

        enum CodingKeys: String, CodingKey {
            case text, links, errors, passage, chosen
            case samePassage = "same_passage"
        }
    }

    var story: String
    var seed: Int
    var engine: String
    var end: String
    var steps: [Step]

    static func read(_ url: URL) throws -> SugarCubeWalk {
        try JSONValueDecoder().decode(SugarCubeWalk.self, from: Array(try Data(contentsOf: url)))
    }
}

/// What the two sides are compared on (docs/sugarcube.md, "Agreement with SugarCube"): a page's words and the
/// labels it offers, normalised the same way on both sides, as the Harlowe walks are (`HarloweWalkText`):
///
/// - White space and line breaks do not count: Chromium's innerText breaks lines where the browser's blocks
///   are, Pajama where its pages' lines are.
/// - A line holding only the page's link labels (and separators between them: `- [[a]]`, `[[a]] | [[b]]`) is
///   left out: SugarCube shows its links in the text, Pajama a line of links as its choices and not again in
///   the text.
/// - A leading list bullet (`•`, `·`) is not a word (innerText leaves out a `<li>`'s marker), nor is Pajama's
///   rule `———` (SugarCube's `----` is an `<hr>`, which has no text).
/// - Case does not count: innerText applies the stylesheet's `text-transform` (a title in capitals), which
///   Pajama, reading no stylesheet, does not.
/// - A label's white space is collapsed; Pajama's `(the picture)` and `(a link)` (a choice needs words) are
///   SugarCube's empty label.
/// - A page with input fields, untouched (the walk types nothing), is Pajama's beat asking their questions,
///   each answered with the field's default, and the beats those answers lead to.
/// - A hard break in a Pajama line (`<br>`) is a line break, as the page draws it.
enum SugarCubeWalkText {
    static func words(_ text: String, labels: [String]) -> [String] {
        let known = Set(labels.map(label)).filter { !$0.isEmpty }.sorted { $0.count > $1.count }
        var words: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var rest = Substring(line).drop { $0.isWhitespace }
            if isLinksOnly(String(rest), known) { continue }  // a label may start with a bullet itself
            if rest.hasPrefix("•") || rest.hasPrefix("·") { rest = rest.dropFirst() }
            if rest.trimmingCharacters(in: .whitespaces) == "———" { continue }
            if isLinksOnly(String(rest), known) { continue }
            words += rest.split(whereSeparator: \.isWhitespace).map { $0.lowercased() }
        }
        return words
    }

    /// An error's wording up to the JavaScript engine's message (`Error: <<set>>: bad evaluation`), nil for
    /// one SugarCube words otherwise: the message itself is V8's in the browser and JSC's in Pajama, so it
    /// is not compared (docs/sugarcube.md, "Agreement with SugarCube").
    static func engineMessagePrefix(_ error: String) -> String? {
        let pattern = /^Error: (cannot execute (macro|widget) <<[^>]*>>|<<[^>]*>>: bad (evaluation|conditional expression in <<[^>]*>> clause( \(#\d+\))?))(?=: )/
        return (try? pattern.prefixMatch(in: error)).map { String($0.output.0) }
    }

    /// An error with its engine messages left out: `Error: <<set>>: bad evaluation: …`; a widget's error
    /// (`Error: <<w>>: errors within widget code (Error: ...; Error: ...)`, widget.js) each of the errors it
    /// names; nil for an error that holds no engine message.
    static func masked(_ error: String) -> String? {
        if let widget = try? /^(Error: <<[^>]*>>: errors? within widget code \()([\s\S]*)\)$/.wholeMatch(in: error) {
            let inner = String(widget.output.2).split(separator: "; Error: ").enumerated()
                .map { $0.offset == 0 ? String($0.element) : "Error: " + $0.element }
            return String(widget.output.1) + inner.map { masked($0) ?? $0 }.joined(separator: "; ") + ")"
        }
        return engineMessagePrefix(error).map { $0 + ": …" }
    }

    /// SugarCube's text with each of its errors' engine messages left out.
    static func maskingErrors(_ text: String, errors: [String]) -> String {
        var text = text
        for error in errors {
            if let masked = masked(error) { text = text.replacing(error, with: masked) }
        }
        return text
    }

    /// Pajama's text with each error notice (`[Error: ...]`) worded as SugarCube's are, its engine message left out.
    static func maskingErrors(pajama text: String) -> String {
        var out = ""
        var rest = Substring(text)
        while let open = rest.firstRange(of: "[Error: ") {
            out += rest[..<open.lowerBound]
            var depth = 0
            var close = rest.endIndex
            for index in rest[open.lowerBound...].indices {
                if rest[index] == "[" { depth += 1 } else if rest[index] == "]" { depth -= 1; if depth == 0 { close = index; break } }
            }
            let inner = String(rest[rest.index(after: open.lowerBound)..<close])
            // SugarCube's error view is a box of its own (innerText puts it on its own line), without brackets.
            if let error = masked(inner) ?? (inner.hasPrefix("Error: ") ? inner : nil) { out += "\n" + error + "\n" } else { out += "[" + inner + "]" }
            rest = close < rest.endIndex ? rest[rest.index(after: close)...] : ""
        }
        return out + rest
    }

    /// A label, its white space collapsed; Pajama's words for a link without text (a picture's, `(the picture)`;
    /// an empty one's, `(a link)`: a choice needs words) are SugarCube's empty label.
    static func label(_ text: String) -> String {
        let label = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return label == "(the picture)" || label == "(a link)" ? "" : label
    }

    static func isLinksOnly(_ line: String, _ labels: [String]) -> Bool {
        var rest = label(line)[...]
        guard !rest.isEmpty else { return false }
        // Between and around the labels, separators (`- [[a]]`, `[[a]] | [[b]]`), as Pajama's line of links
        // leaves them out (SugarCubeFlattener.lines).
        var sawLabel = false
        while !rest.isEmpty {
            if let found = labels.first(where: { rest.hasPrefix($0) }) {
                rest = rest.dropFirst(found.count).drop { $0 == " " }
                sawLabel = true
            } else if let first = rest.first, "|·,-/•".contains(first) {
                rest = rest.dropFirst().drop { $0 == " " }
            } else {
                return false
            }
        }
        return sawLabel
    }

    /// The text a beat shows (its text pages' lines, then the choice page's prompt unless already last) and its
    /// choices' labels; the title page is the story's, not the passage's.
    static func page(of beat: Beat) -> (text: String, labels: [String]) {
        var lines: [String] = []
        var labels: [String] = []
        for page in beat.pages {
            switch page.kind {
            case .title: continue
            case .text(let text):
                // A hard break inside a line (`<br>`, a space in the plain text) breaks it as the page draws it.
                for (index, line) in text.enumerated() {
                    var characters = Array(line)
                    for mark in page.marks where mark.line == index {
                        for offset in mark.breaks.sorted(by: >) where characters.indices.contains(offset) { characters[offset] = "\n" }
                    }
                    lines.append(String(characters))
                }
            case .choice(let prompt, let choices):
                if let prompt, lines.last != prompt { lines.append(prompt) }
                labels = choices.map(\.text)
            case .question(let question):
                if let label = question.label, lines.last != label { lines.append(label) }
            }
        }
        return (lines.joined(separator: "\n"), labels)
    }

    static func added(_ before: [String], _ after: [String]) -> [String] {
        var start = 0
        while start < before.count, start < after.count, before[start] == after[start] { start += 1 }
        var end = 0
        while end < before.count - start, end < after.count - start, before[before.count - 1 - end] == after[after.count - 1 - end] { end += 1 }
        return Array(after[start..<(after.count - end)])
    }

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
