import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaModel
import PajamaStorage

/// Which files are a ChoiceScript game (docs/choicescript.md, "Which folders are ChoiceScript"): a folder
/// holding `scenes/startup.txt` (the game's folder), a folder holding `startup.txt` itself (its scenes
/// folder: the game's folder is the one above when it is named `scenes`), or a ChoiceScript checkout
/// (`web/GAME/scenes/startup.txt`, `mygame/scenes/startup.txt`). The story's folder is the game's folder,
/// where ChoiceScript finds its pictures; its files are the scenes, `scenes/NAME.txt`.
public enum ChoiceScriptFiles {
    /// The names a folder URL is tried for (a web server cannot list a folder), in order.
    public static let usualNames = ["scenes/startup.txt", "startup.txt"]

    /// The largest scene file read.
    static let maximumFileSize = 16 * 1024 * 1024

    /// True for a name a scene may have.
    public static func mayBeScene(_ name: String) -> Bool { name.lowercased().hasSuffix(".txt") }

    /// The game folder and its scene files (relative to it) that a local `path` names, nil when it names none.
    public static func files(at path: String) -> (folder: String, files: [String])? {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        var isFolder = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else { return nil }
        if !isFolder {
            guard url.lastPathComponent.lowercased() == "startup.txt", holdsGame(url.path) else { return nil }
            return files(at: url.deletingLastPathComponent().path)
        }
        let manager = FileManager.default
        if manager.fileExists(atPath: url.appendingPathComponent("story.json").path) { return nil }
        if holdsGame(url.appendingPathComponent("scenes/startup.txt").path) {
            return (url.path, sceneFiles(in: url.appendingPathComponent("scenes").path, prefix: "scenes/"))
        }
        if holdsGame(url.appendingPathComponent("startup.txt").path) {
            if url.lastPathComponent.lowercased() == "scenes" {
                return (url.deletingLastPathComponent().path, sceneFiles(in: url.path, prefix: url.lastPathComponent + "/"))
            }
            return (url.path, sceneFiles(in: url.path, prefix: ""))
        }
        for container in ["web", ""] {
            let base = container.isEmpty ? url : url.appendingPathComponent(container)
            guard let names = try? manager.contentsOfDirectory(atPath: base.path) else { continue }
            let games = names.filter { !$0.hasPrefix(".") }.sorted().filter { holdsGame(base.appendingPathComponent($0 + "/scenes/startup.txt").path) }
            if let game = games.count == 1 ? games[0] : (games.contains("mygame") ? "mygame" : nil) {
                let folder = base.appendingPathComponent(game)
                return (folder.path, sceneFiles(in: folder.appendingPathComponent("scenes").path, prefix: "scenes/"))
            }
        }
        return nil
    }

    /// Every `.txt` of a scenes folder, startup first, then by name.
    static func sceneFiles(in folder: String, prefix: String) -> [String] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { !$0.hasPrefix(".") && mayBeScene($0) }
        let sorted = names.sorted { a, b in
            let aStart = a.lowercased() == "startup.txt", bStart = b.lowercased() == "startup.txt"
            return aStart != bStart ? aStart : a < b
        }
        return sorted.map { prefix + $0 }
    }

    /// Whether the file at `path` is a ChoiceScript startup scene.
    static func holdsGame(_ path: String) -> Bool {
        guard case .bytes(let data) = RegularFile.read(path, limit: maximumFileSize) else { return false }
        return holdsScene(Array(data))
    }

    /// Whether `bytes` look like a ChoiceScript scene: text (no NUL) that is neither HTML nor JSON, with a line
    /// that starts with one of ChoiceScript's commands (`*choice`, `*title`, `*create`, `*scene_list`...).
    public static func holdsScene(_ bytes: [UInt8]) -> Bool {
        guard !bytes.contains(0) else { return false }
        let text = String(decoding: bytes.prefix(1 << 20), as: UTF8.self)
        let start = text.drop { $0.isWhitespace || $0 == "\u{FEFF}" }
        if start.hasPrefix("<") || start.hasPrefix("{") || start.hasPrefix("[") { return false }
        let marks = ["*choice", "*fake_choice", "*title", "*create", "*scene_list", "*finish", "*goto_scene", "*ending", "*temp", "*page_break"]
        for line in text.split(whereSeparator: \.isNewline) {
            let trimmed = line.drop { $0 == " " || $0 == "\t" || $0 == "\u{FEFF}" }
            guard trimmed.hasPrefix("*") else { continue }
            if marks.contains(where: { trimmed.hasPrefix($0) }) { return true }
        }
        return false
    }

    /// The scene's name: the file's name without `.txt` and its folder.
    static func sceneName(_ file: String) -> String {
        let last = file.split(separator: "/").last.map(String.init) ?? file
        return last.lowercased().hasSuffix(".txt") ? String(last.dropLast(4)) : last
    }

    /// The folder of the scene files in the story's folder ("scenes/", or "" when they are in it).
    static func scenePrefix(_ files: [String]) -> String {
        guard let first = files.first, let slash = first.lastIndex(of: "/") else { return "" }
        return String(first[...slash])
    }

    /// The pictures and sounds a scene names (`*image`, `*text_image`, `*sound`) with paths a package may hold.
    public static func assets(in bytes: [UInt8]) -> [AssetPath] {
        var found: Set<AssetPath> = []
        for line in String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline) {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            for command in ["*image ", "*text_image ", "*sound "] where trimmed.lowercased().hasPrefix(command) {
                let value = trimmed.dropFirst(command.count).split(separator: " ").first.map(String.init) ?? ""
                if !value.contains("${"), let path = try? AssetPath(validating: value.trimmingWhitespace) { found.insert(path) }
            }
        }
        return found.sorted()
    }

    /// The name a game is known by without a `*title`: its folder's name.
    static func name(location: String) -> String {
        var trimmed = Substring(location)
        while trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        var parts = trimmed.split(separator: "/").map(String.init)
        if parts.last?.lowercased() == "scenes" { parts.removeLast() }
        let folder = parts.last ?? "game"
        return folder.contains(":") ? "game" : (folder.percentDecoded ?? folder)
    }
}
