import PajamaChoiceScript
import PajamaBasics

/// What a scene's text names without running it.
enum ChoiceScriptScan {
    /// The scenes a scene's text names literally: `*goto_scene`, `*gosub_scene` (their first word, when it
    /// holds no expression) and the rows of `*scene_list`.
    static func namedScenes(in text: String) -> [String] {
        var names: [String] = []
        var inList: Int?
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            let indent = line.prefix { $0 == " " || $0 == "\t" }.count
            let trimmed = line.trimmingSpaces
            if let listIndent = inList {
                if trimmed.isEmpty { continue }
                if indent > listIndent {
                    let row = trimmed.hasPrefix("$") ? String(trimmed.drop { $0 != " " }).trimmingSpaces : trimmed
                    if !row.isEmpty { names.append(row) }
                    continue
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
        return names
    }
}
