import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaStorage
import PajamaJSON

/// Colours and attributes per style role, loaded from a JSON file (see docs/reader.md, "Themes").
public struct Theme: Sendable, Equatable {
    /// How one role looks.
    public struct RoleStyle: Sendable, Equatable, Codable {
        /// "#rrggbb" or "default" for 256-colour and direct-colour terminals.
        public var fg: String?
        public var bg: String?
        /// One of the 8 ANSI colour names (black red green yellow blue magenta cyan white) or "default",
        /// for 8- and 16-colour terminals.
        public var fg8: String?
        public var bg8: String?
        public var bold: Bool?
        public var dim: Bool?
        public var reverse: Bool?
        public var underline: Bool?
        public var italic: Bool?
    }

    public var name: String
    public var roles: [StyleRole: RoleStyle]

    private struct File: Codable {
        var name: String
        var roles: [String: RoleStyle]
    }

    /// Decodes a theme file; unknown roles are ignored, missing roles fall back to the built-in default.
    public static func decode(_ data: Data) throws -> Theme {
        let file = try JSONValueDecoder(maximumSize: SettingsFile.maximumFileSize).decode(File.self, from: [UInt8](data))
        var roles = Theme.builtIn.roles
        for (key, style) in file.roles { if let role = StyleRole(rawValue: key) { roles[role] = style } }
        return Theme(name: file.name, roles: roles)
    }

    public func style(_ role: StyleRole) -> RoleStyle { roles[role] ?? RoleStyle() }

    /// Used when no theme file can be read: works on any terminal.
    public static let builtIn = Theme(name: "built-in", roles: [
        .text: RoleStyle(fg: "default", bg: "default", fg8: "default", bg8: "default"),
        .title: RoleStyle(fg: "#f0c060", fg8: "yellow", bold: true),
        .subtitle: RoleStyle(fg: "#a0a0a0", fg8: "white", italic: true),
        .prompt: RoleStyle(fg: "#80c0ff", fg8: "cyan", bold: true),
        .choice: RoleStyle(fg: "default", fg8: "default"),
        .selected: RoleStyle(fg: "#000000", bg: "#f0c060", fg8: "black", bg8: "yellow", bold: true),
        .status: RoleStyle(fg: "#d0d0d0", bg: "#303040", fg8: "white", bg8: "blue", reverse: false),
        .dim: RoleStyle(fg: "#808080", fg8: "white", dim: true),
        .error: RoleStyle(fg: "#ff6060", fg8: "red", bold: true),
        .picture: RoleStyle(fg: "default", fg8: "default"),
    ])
}

/// Finds and loads themes by name.
public enum ThemeLibrary {
    /// Folders searched, first match wins: the reader's own (`paths.themes`: `$PAJAMA_THEMES`, then
    /// `config/themes`), `./Themes`, and the themes that came with the executable (`Installation`:
    /// `PREFIX/share/pajama/Themes` when installed, the checkout's `Themes` when built from source).
    public static func searchPaths(_ paths: Paths, installation: Installation = .current) -> [URL] {
        var folders = paths.themes
        folders.append(URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("Themes"))
        if let bundled = installation.themes { folders.append(URL(fileURLWithPath: bundled)) }
        return folders
    }

    /// Every theme name found, sorted, unique.
    public static func names(in paths: [URL]) -> [String] {
        var names = Set<String>()
        for path in paths {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: path.path)) ?? []
            for file in files where file.hasSuffix(".json") { names.insert(String(file.dropLast(5))) }
        }
        return names.sorted()
    }

    /// The theme called `name`, or nil when no readable file has that name.
    public static func load(_ name: String, paths: [URL]) -> Theme? {
        guard !name.contains("/"), !name.hasPrefix(".") else { return nil }
        for path in paths {
            let file = path.appendingPathComponent(name + ".json")
            if let bytes = SettingsFile.bytes(at: file), let theme = try? Theme.decode(Data(bytes)) { return theme }
        }
        return nil
    }
}
