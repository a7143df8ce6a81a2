/// Path arithmetic on strings, as `NSString`'s path methods did it (not in FoundationEssentials): a path's
/// last component, its folder, its extension. `/`-separated; trailing slashes ignored, as NSString did.
public enum PathText {
    /// The last component: `a/b/c.txt` -> `c.txt`; `/` -> `/`.
    public static func lastComponent(_ path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        if trimmed == "/" || trimmed.isEmpty { return trimmed }
        return trimmed.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? trimmed
    }

    /// All but the last component: `a/b/c.txt` -> `a/b`; `c.txt` -> ``; `/c` -> `/`.
    public static func deletingLastComponent(_ path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        if slash == trimmed.startIndex { return "/" }
        return withoutTrailingSlashes(String(trimmed[..<slash]))
    }

    /// `component` appended with one `/`: `a` + `b` -> `a/b`; `` + `b` -> `b`; `a/` + `b` -> `a/b`.
    public static func appending(_ path: String, _ component: String) -> String {
        if path.isEmpty { return component }
        if component.isEmpty { return path }
        return withoutTrailingSlashes(path) + (path == "/" ? "" : "/") + component.drop(while: { $0 == "/" })
    }

    /// Without the last component's extension: `a/b.tar.gz` -> `a/b.tar`; `.hidden` and `a.` are kept
    /// as NSString kept them (a leading dot is no extension; a trailing dot is removed with nothing after it).
    public static func deletingExtension(_ path: String) -> String {
        let name = lastComponent(path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return withoutTrailingSlashes(path) }
        let stem = String(name[..<dot])
        let folder = deletingLastComponent(path)
        return folder.isEmpty ? stem : appending(folder, stem)
    }

    /// The last component's extension, without its dot: `a/b.tar.gz` -> `gz`; none -> ``.
    public static func pathExtension(_ path: String) -> String {
        let name = lastComponent(path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...])
    }

    /// `.` and `..` components resolved and repeated slashes removed, lexically (no symbolic links
    /// followed): `/a/./b/../c//d` -> `/a/c/d`.
    public static func standardized(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." { parts.removeLast(); continue }
            if part == "..", absolute { continue }
            parts.append(part)
        }
        let joined = parts.joined(separator: "/")
        return absolute ? "/" + joined : (joined.isEmpty ? "." : joined)
    }

    private static func withoutTrailingSlashes(_ path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        return String(trimmed)
    }
}
