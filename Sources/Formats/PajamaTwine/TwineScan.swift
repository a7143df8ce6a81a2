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
        /// The pictures of `images` named by an `<img>` without alt text (no `alt`, or only spaces).
        public var imagesWithoutAlt: [String] = []
        /// The sounds it names, each with its sources in order (a HAL track's, an `<audio>`'s `<source>`s).
        public var soundSources: [Sound] = []
        /// Every sound file named, each source of each sound.
        public var sounds: [String] {
            var all: [String] = []
            for sound in soundSources { for source in sound.sources { TwineScan.add(source, to: &all) } }
            return all
        }
    }

    /// A sound a passage names: its sources Pajama may play, in order (`HarloweAudio.sources(of:)`: the first
    /// that the package holds is played), and the HAL track it is, if it is one.
    public struct Sound: Sendable, Equatable {
        public var sources: [String]
        public var track: String?

        public init(sources: [String], track: String? = nil) {
            self.sources = sources
            self.track = track
        }
    }

    public var passages: [Passage]

    /// `only`: the passages to read (all when nil).
    public init(_ story: TwineStory, only: ((TwinePassage) -> Bool)? = nil) {
        passages = story.passages.filter { only?($0) ?? true }.map { passage in
            var found = Passage(name: passage.name, tags: passage.tags)
            if passage.name == HarloweAudio.tracksPassage {
                // HAL's track list: its sources are the story's sounds.
                for track in HarloweAudio.trackSources(in: passage.text) { Self.add(Sound(sources: track.sources, track: track.name), to: &found) }
                return found
            }
            Self.walk(HarloweParser.parse(passage.text), into: &found)
            return found
        }
    }

    /// The sounds named with several sources, by their first (the one a page names): the others, in order.
    /// Only the passages that may name several are read (`hal.tracks`, those with `<source` or `newtrack`).
    public static func alternatives(in story: TwineStory) -> [String: [String]] {
        let scan = TwineScan(story) { passage in
            passage.name == HarloweAudio.tracksPassage || ASCIISearch.contains(passage.text, "<source")
                || ASCIISearch.contains(passage.text, "newtrack")
        }
        var result: [String: [String]] = [:]
        for passage in scan.passages {
            for sound in passage.soundSources where sound.sources.count > 1 {
                var others = result[sound.sources[0]] ?? []
                for source in sound.sources.dropFirst() where source != sound.sources[0] { add(source, to: &others) }
                result[sound.sources[0]] = others
            }
        }
        return result
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
        /// An `<audio>` without a `src` of its own: its `<source>`s up to `</audio>` are one sound.
        var group: [String]?
        func close() {
            if let sources = group.map(HarloweAudio.sources(of:)), !sources.isEmpty { add(Sound(sources: sources), to: &found) }
            group = nil
        }
        defer { close() }
        for node in nodes {
            switch node {
            case .link(_, let target): add(target, to: &found.targets)
            case .macro(let call): macro(call, into: &found)
            case .hook(let hook): walk(hook.body, into: &found)
            case .heading(let inner), .collapse(let inner): walk(inner, into: &found)
            case .variable(let expression): expressions([expression], into: &found)
            case .attached(let expression, let hook):
                expressions([expression], into: &found)
                walk(hook.body, into: &found)
            case .html(let tag):
                let lower = tag.lowercased()
                if lower.hasPrefix("<img"), let source = HarloweFlattener.attribute("src", in: tag) {
                    add(source, to: &found.images)
                    if HarloweFlattener.attribute("alt", in: tag)?.contains(where: { !$0.isWhitespace }) != true { add(source, to: &found.imagesWithoutAlt) }
                }
                if lower.hasPrefix("</audio") {
                    close()
                } else if lower.hasPrefix("<audio") {
                    close()
                    if let source = HarloweFlattener.attribute("src", in: tag) { add(Sound(sources: [source]), to: &found) } else { group = [] }
                } else if lower.hasPrefix("<source"), let source = HarloweFlattener.attribute("src", in: tag) {
                    if group != nil { group?.append(source) } else { add(Sound(sources: [source]), to: &found) }
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
            let sources = HarloweAudio.sources(of: (1..<max(1, arguments.count)).compactMap(literal))
            if !sources.isEmpty { add(Sound(sources: sources, track: literal(0)), to: &found) }
        case "track":
            if let command = literal(1)?.lowercased(), !HarloweAudio.trackCommands.contains(command) { add("(track: '\(command)')", to: &found.unsupported) }
        case "masteraudio":
            if let command = literal(0)?.lowercased(), !HarloweAudio.masterCommands.contains(command) {
                add("(masteraudio: '\(command)')", to: &found.unsupported)
            }
        default: break
        }
    }

    fileprivate static func add(_ item: String, to list: inout [String]) { if !list.contains(item) { list.append(item) } }

    private static func add(_ sound: Sound, to found: inout Passage) { if !found.soundSources.contains(sound) { found.soundSources.append(sound) } }
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
                let trimmed = line.trimmingSpaces
                if trimmed.hasPrefix("["), trimmed.hasSuffix("]"), !trimmed.hasPrefix("[["), trimmed.count > 2 {
                    return Use(passage: passage.name, construct: trimmed)
                }
            }
            if passage.text.contains(#/\([A-Za-z-]+:/#) {
                return Use(passage: passage.name, construct: "a macro")
            }
        }
        return nil
    }

    private static func construct(_ marker: String, in text: String) -> String {
        guard let start = text.firstRange(of: marker) else { return marker }
        let rest = text[start.lowerBound...].prefix(24)
        let line = rest.prefix { $0 != "\n" }
        return String(line)
    }
}

import FoundationEssentials
import Glibc
import PajamaBasics
