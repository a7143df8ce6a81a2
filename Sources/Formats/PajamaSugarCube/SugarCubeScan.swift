import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaTwine

/// What each passage of a SugarCube story names, read without playing it (for `validate` and the files a
/// co-reading host serves): the macros Pajama does not play, the passages its links and `<<goto>>`s name
/// literally, and its pictures and sounds.
public enum SugarCubeScan {
    public struct Passage: Sendable, Equatable {
        public var name: String
        public var unsupported: [String] = []
        /// Passages named by links, `<<goto>>`, `<<include>>` as literal text (expressions are not followed).
        public var targets: [String] = []
        public var images: [String] = []
        public var sounds: [String] = []
    }

    /// The passages that name anything; `custom`: macros the story defines (widgets, `Macro.add`).
    public static func scan(_ story: TwineStory, custom: Set<String>) -> [Passage] {
        var widgets = custom
        for passage in story.passages where passage.tags.contains("widget") {
            for node in SugarCubeParser.parse(passage.text) {
                if case .macro(let macro) = node, macro.name == "widget", let name = firstLiteral(macro.arguments) { widgets.insert(name) }
            }
        }
        var result: [Passage] = []
        for passage in story.passages where !passage.tags.contains("script") && !passage.tags.contains("stylesheet") && !passage.tags.contains("Twine.image") {
            var found = Passage(name: passage.name)
            walk(SugarCubeParser.parse(passage.text, extraContainers: widgets), known: widgets, into: &found)
            if !found.unsupported.isEmpty || !found.targets.isEmpty || !found.images.isEmpty || !found.sounds.isEmpty { result.append(found) }
        }
        return result
    }

    private static func walk(_ nodes: [SugarCubeNode], known: Set<String>, into found: inout Passage) {
        for node in nodes {
            switch node {
            case .link(let link):
                if !isExpression(link.target), !SugarCubeEvaluator.isExternal(link.target) { found.targets.append(link.target) }
            case .image(let image):
                found.images.append(image.source)
                if let target = image.link, !isExpression(target) { found.targets.append(target) }
            case .tag(let tag):
                let name = SugarCubeWriter.name(of: tag)
                if name == "img", let source = SugarCubeWriter.attribute("src", in: tag) { found.images.append(source) }
                if name == "audio" || name == "source", let source = SugarCubeWriter.attribute("src", in: tag) { found.sounds.append(source) }
            case .macro(let macro):
                if !SugarCubeEvaluator.played.contains(macro.name), !known.contains(macro.name), !found.unsupported.contains(macro.name) {
                    found.unsupported.append(macro.name)
                }
                if ["goto", "include", "display"].contains(macro.name), let target = firstLiteral(macro.arguments) { found.targets.append(target) }
                if macro.name == "cacheaudio" {
                    found.sounds += literals(macro.arguments).dropFirst().filter { !$0.hasPrefix("format:") }
                }
                for clause in macro.clauses { walk(clause.body, known: known, into: &found) }
                if macro.name == "link" || macro.name == "button" {
                    let args = literals(macro.arguments)
                    if args.count > 1 { found.targets.append(args[1]) }
                }
            default: break
            }
        }
    }

    private static func isExpression(_ text: String) -> Bool {
        text.contains { $0 == "$" || $0 == "(" || $0 == "\"" || $0 == "'" || $0 == "+" || $0 == "`" } || text.hasPrefix("_")
    }

    /// The quoted strings of a macro's arguments, in order (other arguments skipped).
    static func literals(_ arguments: String) -> [String] {
        let chars = Array(arguments)
        var out: [String] = []
        var i = 0
        while i < chars.count {
            if chars[i] == "\"" || chars[i] == "'" {
                let end = SugarCubeScript.stringEnd(chars, from: i)
                out.append(String(chars[(i + 1)..<max(i + 1, end - 1)]))
                i = end
            } else {
                i += 1
            }
        }
        return out
    }

    /// The first argument when it is a quoted string (or a bare word, or a `[[link]]`'s passage).
    static func firstLiteral(_ arguments: String) -> String? {
        let trimmed = arguments.trimmingSpaces
        if trimmed.hasPrefix("\"") || trimmed.hasPrefix("'") { return literals(trimmed).first }
        if trimmed.hasPrefix("[["), let end = trimmed.firstRange(of: "]]") {
            return SugarCubeLinkMarkup.parse(String(trimmed[..<end.upperBound])).flatMap { isExpression($0.target) ? nil : $0.target }
        }
        let word = trimmed.prefix { !$0.isWhitespace }
        return word.isEmpty || isExpression(String(word)) || word.hasPrefix("_") ? nil : String(word)
    }
}
