import PajamaChoiceScript
import PajamaBasics

/// What a scene's text names without running it.
enum ChoiceScriptScan {
    /// The scenes a scene's text names literally: `*goto_scene`, `*gosub_scene` (their first word, when it
    /// holds no expression) and the rows of `*scene_list`. Lines are cut as ChoiceScript cuts them (on `\n`,
    /// a `\r` before it dropped), as `CSScene` does.
    ///
    /// On the text's bytes: only a line that starts with `*` (after spaces and tabs), or that may be a row of
    /// a `*scene_list`, becomes a `String`; the rest of a 1 MB game is never looked at as characters (as
    /// characters, this scan was two thirds of a game's opening; docs/choicescript.md, "Speed").
    static func namedScenes(in text: String) -> [String] {
        var names: [String] = []
        var inList: Int?
        var text = text
        text.withUTF8 { bytes in
            var start = 0
            while start <= bytes.count {
                var end = start
                while end < bytes.count, bytes[end] != 0x0A { end += 1 }
                defer { start = end + 1 }
                var first = start
                while first < end, bytes[first] == 0x20 || bytes[first] == 0x09 { first += 1 }
                // Not a command, and not a row of a list: nothing named here. A byte above ASCII may be white
                // space in Unicode's sense (which `trimmingSpaces` drops): such a line is looked at as text.
                if inList == nil, first < end, bytes[first] != UInt8(ascii: "*"), bytes[first] < 0x80, bytes[first] > 0x20 { continue }
                if inList == nil, first == end { continue }
                let lineEnd = end > start && bytes[end - 1] == 0x0D ? end - 1 : end
                let line = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<lineEnd]), as: UTF8.self)
                scan(line, indent: first - start, inList: &inList, into: &names)
            }
        }
        return names
    }

    /// One line of `namedScenes`: `indent` its leading spaces and tabs.
    private static func scan(_ line: String, indent: Int, inList: inout Int?, into names: inout [String]) {
        let trimmed = line.trimmingSpaces
        if let listIndent = inList {
            if trimmed.isEmpty { return }
            if indent > listIndent {
                let row = trimmed.hasPrefix("$") ? String(trimmed.drop { $0 != " " }).trimmingSpaces : trimmed
                if !row.isEmpty { names.append(row) }
                return
            }
            inList = nil
        }
        let lower = trimmed.lowercased()
        if lower.hasPrefix("*scene_list") {
            inList = indent
        } else if lower.hasPrefix("*goto_scene ") || lower.hasPrefix("*gosub_scene ") {
            let words = trimmed.split(separator: " ", omittingEmptySubsequences: true)
            if words.count >= 2, !words[1].contains("{"), !words[1].contains("[") { names.append(String(words[1])) }
        }
    }
}
