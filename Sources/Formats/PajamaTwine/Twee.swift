import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaJSON

/// Twee 3 source (the Twee 3 specification): passages start at a header line
/// `:: Name [tag1 tag2] {"position":"100,100"}`; `StoryTitle` holds the title, `StoryData` a JSON object
/// with `ifid`, `format`, `format-version` and `start`. In a name, `\[ \] \{ \} \\` are escapes; a content
/// line starting with `\::` is a line starting with `::`.
public enum Twee {
    public static func parse(_ source: String) throws(TwineParseError) -> TwineStory {
        // "\r\n" is one Character in Swift: a file written on Windows is split into lines only once it is "\n".
        var text = source.replacingCRLF()
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        var passages: [TwinePassage] = []
        var current: (header: Header, lines: [Substring])?
        var lineNumber = 0
        func close() {
            guard let open = current else { return }
            var lines = open.lines
            while let last = lines.last, last.allSatisfy(\.isWhitespace) { lines.removeLast() }
            let body = lines.map { $0.hasPrefix("\\::") ? $0.dropFirst() : $0 }.joined(separator: "\n")
            passages.append(TwinePassage(name: open.header.name, tags: open.header.tags, text: body))
        }
        // Split on the bytes: a line feed is always a Character of its own, and splitting a 1 MB story by
        // Character was a third of opening it.
        for rawBytes in text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false) {
            let rawLine = Substring(rawBytes)
            lineNumber += 1
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            if line.hasPrefix("::") {
                close()
                let header = try Header(line.dropFirst(2), line: lineNumber)
                current = (header, [])
            } else if current != nil {
                current!.lines.append(line)
            }
        }
        close()
        guard !passages.isEmpty else { throw TwineParseError("no passage (a Twee passage starts with a line \":: Name\")") }
        var title = passages.first { $0.name == "StoryTitle" }?.text.trimmingWhitespace
        var data = JSON.object([])
        if let storyData = passages.first(where: { $0.name == "StoryData" }) {
            do {
                data = try JSONParser.parse(storyData.text)
            } catch {
                throw TwineParseError("the StoryData passage is not valid JSON: \(error)")
            }
            guard case .object = data else { throw TwineParseError("the StoryData passage is not a JSON object (it is \(data.typeDescription))") }
        }
        let story = passages.filter { $0.name != "StoryTitle" && $0.name != "StoryData" }
        if title?.isEmpty ?? true { title = nil }
        let start = data["start"]?.stringValue ?? (story.contains { $0.name == "Start" } ? "Start" : story.first?.name)
        guard let start else { throw TwineParseError("no passage besides StoryTitle and StoryData") }
        guard story.contains(where: { $0.name == start }) else {
            throw TwineParseError("the start passage \"\(start)\" named by StoryData does not exist")
        }
        return TwineStory(title: title ?? "", ifid: data["ifid"]?.stringValue, format: data["format"]?.stringValue,
                          formatVersion: data["format-version"]?.stringValue, start: start, passages: story)
    }

    /// A passage header after its `::`: the name (escapes undone), the tags in `[...]`, the metadata in `{...}`
    /// (read past, not used).
    struct Header {
        var name: String
        var tags: [String]

        init(_ text: Substring, line: Int) throws(TwineParseError) {
            // Each character of the name, and whether it was escaped: an escaped space is the name's own
            // (`:: \ bed` is the passage " bed", not "bed"), only the others around it are trimmed.
            var name: [(character: Character, escaped: Bool)] = []
            var tags: [String] = []
            var index = text.startIndex
            var escaped = false
            while index < text.endIndex {
                let character = text[index]
                if escaped {
                    name.append((character, true))
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "[" || character == "{" {
                    break
                } else {
                    name.append((character, false))
                }
                index = text.index(after: index)
            }
            if index < text.endIndex, text[index] == "[" {
                guard let close = text[index...].firstIndex(of: "]") else {
                    throw TwineParseError("line \(line): the passage header's tags have no closing \"]\"")
                }
                tags = text[text.index(after: index)..<close].split(whereSeparator: \.isWhitespace).map(String.init)
            }
            let isTrimmed = { (item: (character: Character, escaped: Bool)) in !item.escaped && (item.character == " " || item.character == "\t") }
            var kept = name[...].drop(while: isTrimmed)
            while let last = kept.last, isTrimmed(last) { kept.removeLast() }
            self.name = String(kept.map(\.character))
            guard !self.name.isEmpty else { throw TwineParseError("line \(line): a passage header without a name") }
            self.tags = tags
        }
    }
}
