import PajamaBasics
/// One scene file of a game: its lines as ChoiceScript splits them (on `\n` or `\r\n`), its labels, and each
/// line's indentation (its leading spaces or tabs, counted one each).
public struct CSScene: Sendable {
    public let name: String
    public let lines: [String]
    let indents: [Int]
    /// The line (0-based) of each `*label`, by its lower-case name.
    let labels: [String: Int]
    /// Why the scene cannot run (a label defined twice, a label with a space), with its line (0-based).
    public let problem: (line: Int, message: String)?

    public init(name: String, text: String) {
        self.name = name
        var body = Substring(text)
        if body.hasPrefix("\u{FEFF}") { body = body.dropFirst() }
        // On bytes: "\r\n" is one Character, which a split on "\n" would not cut.
        var lines = body.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).map { line -> String in
            line.last == 0x0D ? String(decoding: line.dropLast(), as: UTF8.self) : String(decoding: line, as: UTF8.self)
        }
        if lines.last == "" , lines.count > 1 { lines.removeLast() }
        self.lines = lines
        indents = lines.map { line in
            var count = 0
            for byte in line.utf8 {
                guard byte == 0x20 || byte == 0x09 else { break }
                count += 1
            }
            return count
        }
        var labels: [String: Int] = [:]
        var problem: (Int, String)?
        for (index, line) in lines.enumerated() {
            guard let (command, data) = CSScene.command(in: line), command == "label" else { continue }
            let label = data.lowercased()
            if label.contains(" ") || label.contains("\t") {
                problem = problem ?? (index, "label '\(label)' is not allowed to contain spaces")
            } else if let first = labels[label] {
                problem = problem ?? (index, "label '\(label)' already defined on line \(first + 1)")
            } else {
                labels[label] = index
            }
        }
        self.labels = labels
        self.problem = problem
    }

    func indent(_ line: Int) -> Int { line >= 0 && line < indents.count ? indents[line] : 0 }

    func isBlank(_ line: Int) -> Bool { lines[line].utf8.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0B || $0 == 0x0C } }

    /// The command of a line (`*name data`: the name lower-cased, the data trimmed), nil for a line of text.
    static func command(in line: String) -> (String, String)? {
        let bytes = line.utf8
        var index = bytes.startIndex
        while index < bytes.endIndex, bytes[index] == 0x20 || bytes[index] == 0x09 { index = bytes.index(after: index) }
        guard index < bytes.endIndex, bytes[index] == UInt8(ascii: "*") else { return nil }
        let nameStart = bytes.index(after: index)
        var nameEnd = nameStart
        while nameEnd < bytes.endIndex, CSScene.isWord(bytes[nameEnd]) { nameEnd = bytes.index(after: nameEnd) }
        guard nameEnd > nameStart else { return nil }
        let name = String(line[nameStart..<nameEnd]).lowercased()
        return (name, String(line[nameEnd...]).trimmingSpaces)
    }

    static func isWord(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
    }
}

/// A ChoiceScript game: its scenes by name, and what startup.txt declares at its top (`*title`, `*author`,
/// `*scene_list`, `*achievement`).
public struct CSGame: Sendable {
    public struct Achievement: Sendable, Equatable {
        public var name: String
        public var visible: Bool
        public var points: Int
        public var title: String
        public var preEarned: String
        public var postEarned: String
    }

    public let scenes: [String: CSScene]
    /// The order `*finish` follows: startup.txt's `*scene_list` (startup first), else startup alone.
    public let sceneList: [String]
    public let title: String?
    public let author: String?
    public let achievements: [Achievement]

    /// `sceneTexts`: each scene's text by its name (the file's name without `.txt`); there must be a startup.
    public init(sceneTexts: [String: String]) {
        var scenes: [String: CSScene] = [:]
        for (name, text) in sceneTexts { scenes[name] = CSScene(name: name, text: text) }
        self.scenes = scenes
        var list: [String] = []
        var title: String?
        var author: String?
        var achievements: [Achievement] = []
        if let startup = scenes["startup"] {
            var index = 0
            let lines = startup.lines
            while index < lines.count {
                defer { index += 1 }
                guard let (command, data) = CSScene.command(in: lines[index]) else { continue }
                switch command {
                case "title": title = title ?? data
                case "author": author = author ?? data
                case "scene_list" where list.isEmpty:
                    var row = index + 1
                    while row < lines.count {
                        if startup.isBlank(row) { row += 1; continue }
                        guard startup.indent(row) > startup.indent(index) else { break }
                        var name = lines[row].trimmingSpaces
                        if name.hasPrefix("$"), let space = name.firstIndex(where: { $0 == " " || $0 == "\t" }) {
                            name = String(name[space...]).trimmingSpaces
                        }
                        if list.isEmpty, name.lowercased() != "startup" { list.append("startup") }
                        list.append(name)
                        row += 1
                    }
                case "achievement":
                    let words = data.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: true).map(String.init)
                    guard words.count == 4 else { continue }
                    var pre = ""
                    var post: String?
                    if index + 1 < lines.count, startup.indent(index + 1) > 0 { pre = lines[index + 1].trimmingSpaces }
                    var row = index + 2
                    while row < lines.count, startup.isBlank(row) { row += 1 }
                    if row < lines.count, startup.indent(row) > 0, CSScene.command(in: lines[row]) == nil { post = lines[row].trimmingSpaces }
                    achievements.append(Achievement(name: words[0].lowercased(), visible: words[1] != "hidden", points: Int(words[2]) ?? 0,
                                                    title: words[3], preEarned: pre, postEarned: post ?? pre))
                default: break
                }
            }
        }
        sceneList = list.isEmpty ? ["startup"] : list
        self.title = title
        self.author = author
        self.achievements = achievements
    }

    /// The scene named `name` (as `*goto_scene` names it: exactly, else ignoring case).
    public func scene(named name: String) -> CSScene? {
        if let scene = scenes[name] { return scene }
        let lower = name.lowercased()
        return scenes.first { $0.key.lowercased() == lower }?.value
    }

    /// The scene after `name` in the scene list, nil after the last (or for a scene the list lacks).
    func scene(after name: String) -> String? {
        guard let index = sceneList.firstIndex(where: { $0.lowercased() == name.lowercased() }), index + 1 < sceneList.count else { return nil }
        return sceneList[index + 1]
    }
}
