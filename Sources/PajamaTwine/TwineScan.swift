/// What a story uses, read from its source without playing it (`pajama validate`, the corpus table,
/// the manifest's critical pictures): per passage, the macros, the links' targets, the pictures and sounds.
public struct TwineScan: Sendable {
    public struct Passage: Sendable, Equatable {
        public var name: String
        public var tags: [String]
        /// Every macro called, as written (lowercase), once each.
        public var macros: [String] = []
        /// The macros Pajama does not play.
        public var unsupported: [String] = []
        /// Passages named by links, `(goto:)`, `(link-goto:)` and `(display:)` with a string.
        public var targets: [String] = []
        public var images: [String] = []
        public var sounds: [String] = []
    }

    public var passages: [Passage]

    /// `only`: the passages to read (all when nil).
    public init(_ story: TwineStory, only: ((TwinePassage) -> Bool)? = nil) {
        passages = story.passages.filter { only?($0) ?? true }.map { passage in
            var found = Passage(name: passage.name, tags: passage.tags)
            if passage.name == HarloweAudio.tracksPassage {
                // HAL's track list: its sources are the story's sounds.
                for source in HarloweAudio.tracks(in: passage.text).values.sorted() { Self.add(source, to: &found.sounds) }
                return found
            }
            Self.walk(HarloweParser.parse(passage.text), into: &found)
            return found
        }
    }

    /// Every macro called in the story, with how many passages call it.
    public var macroCounts: [String: Int] {
        var counts: [String: Int] = [:]
        for passage in passages { for macro in passage.macros { counts[macro, default: 0] += 1 } }
        return counts
    }

    public var unsupported: [String] { Array(Set(passages.flatMap(\.unsupported))).sorted() }

    /// A macro as messages show it: `(live:)` for `live`; a command already written whole (`(track: 'fadeup')`)
    /// as it is.
    public static func shown(macro: String) -> String { macro.hasPrefix("(") ? macro : "(\(macro):)" }

    private static func walk(_ nodes: [HarloweNode], into found: inout Passage) {
        for node in nodes {
            switch node {
            case .link(_, let target): add(target, to: &found.targets)
            case .macro(let call): macro(call, into: &found)
            case .hook(let hook): walk(hook.body, into: &found)
            case .heading(let inner), .collapse(let inner): walk(inner, into: &found)
            case .variable(let expression): expressions([expression], into: &found)
            case .html(let tag):
                let lower = tag.lowercased()
                if lower.hasPrefix("<img"), let source = HarloweFlattener.attribute("src", in: tag) { add(source, to: &found.images) }
                if lower.hasPrefix("<audio") || lower.hasPrefix("<source"), let source = HarloweFlattener.attribute("src", in: tag) {
                    add(source, to: &found.sounds)
                }
            case .text, .newline, .toggle, .rule, .bullet, .aligner, .verbatim, .pageBreak: break
            }
        }
    }

    private static func macro(_ call: HarloweMacroCall, into found: inout Passage) {
        let written = call.written.lowercased()
        add(written, to: &found.macros)
        if !HarloweEvaluator.supported.contains(call.name), !HarloweEvaluator.cosmeticChangers.contains(call.name),
            !HarloweEvaluator.timedChangers.contains(call.name)
        {
            add(written, to: &found.unsupported)
        }
        if case .success(let arguments) = call.arguments {
            if ["goto", "display"].contains(call.name), case .literal(.string(let target))? = arguments.first { add(target, to: &found.targets) }
            if call.name == "linkgoto", let last = arguments.last, case .literal(.string(let target)) = last { add(target, to: &found.targets) }
            audio(call.name, arguments, into: &found)
            expressions(arguments, into: &found)
        }
        if let hook = call.hook { walk(hook.body, into: &found) }
    }

    private static func expressions(_ list: [HarloweExpr], into found: inout Passage) {
        for expression in list {
            switch expression {
            case .macro(let call): macro(call, into: &found)
            case .binary(_, let a, let b): expressions([a, b], into: &found)
            case .not(let a), .negate(let a), .spread(let a): expressions([a], into: &found)
            case .property(let a, let property):
                expressions([a], into: &found)
                if case .computed(let b) = property { expressions([b], into: &found) }
            case .assignment(let a, let b, _): expressions([a, b], into: &found)
            default: break
            }
        }
    }

    /// HAL's macros: `(newtrack:)`'s source is a sound; a `(track:)` or `(masteraudio:)` command HAL does not
    /// have, or Pajama does not play, is unsupported (`(track: 'fadeup')`).
    private static func audio(_ name: String, _ arguments: [HarloweExpr], into found: inout Passage) {
        func literal(_ index: Int) -> String? {
            guard arguments.indices.contains(index), case .literal(.string(let text)) = arguments[index] else { return nil }
            return text
        }
        switch name {
        case "newtrack":
            if let source = HarloweAudio.source(of: (1..<max(1, arguments.count)).compactMap(literal)) { add(source, to: &found.sounds) }
        case "track":
            if let command = literal(1)?.lowercased(), !HarloweAudio.trackCommands.contains(command) { add("(track: '\(command)')", to: &found.unsupported) }
        case "masteraudio":
            if let command = literal(0)?.lowercased(), !HarloweAudio.masterCommands.contains(command) {
                add("(masteraudio: '\(command)')", to: &found.unsupported)
            }
        default: break
        }
    }

    private static func add(_ item: String, to list: inout [String]) { if !list.contains(item) { list.append(item) } }
}

/// Whether a story of another format than Harlowe holds only links and plain text (then it reads here):
/// the first passage that does not, and what it uses.
public enum TwinePlainCheck {
    public struct Use: Sendable, Equatable {
        public var passage: String
        public var construct: String
    }

    /// nil when every passage is links and plain text.
    public static func firstScript(in story: TwineStory) -> Use? {
        let markers = ["<<", "<%", "<script", "{", "$", "(set:", "(if:", "(print:"]
        for passage in story.passages where !passage.tags.contains("stylesheet") && !passage.tags.contains("script") {
            let text = passage.text
            for marker in markers where text.contains(marker) {
                return Use(passage: passage.name, construct: construct(marker, in: text))
            }
            // Chapbook's modifiers: a line that is only `[something]`.
            for line in text.split(separator: "\n") {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("["), trimmed.hasSuffix("]"), !trimmed.hasPrefix("[["), trimmed.count > 2 {
                    return Use(passage: passage.name, construct: trimmed)
                }
            }
            if passage.text.range(of: #"\([A-Za-z-]+:"#, options: .regularExpression) != nil {
                return Use(passage: passage.name, construct: "a macro")
            }
        }
        return nil
    }

    private static func construct(_ marker: String, in text: String) -> String {
        guard let start = text.range(of: marker) else { return marker }
        let rest = text[start.lowerBound...].prefix(24)
        let line = rest.prefix { $0 != "\n" }
        return String(line)
    }
}

import Foundation
