/// A reference to a file inside a story package: relative to the package root, `/` separators.
///
/// The only way to make one is `init(validating:)`, which refuses anything that could reach outside
/// the package: absolute paths, URLs, `..` or `.` segments, empty segments, backslashes, NUL and
/// control characters.
public struct AssetPath: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The path as written in the story, e.g. `assets/wolf.ogg`.
    public let value: String

    /// Why a path was refused.
    public enum Problem: Error, Equatable, Sendable, CustomStringConvertible {
        case empty
        case absolute
        case url
        case parentSegment
        case backslash
        case nul
        case controlCharacter
        case emptySegment
        case tooLong(Int)

        public var description: String {
            switch self {
            case .empty: "the path is empty"
            case .absolute: "an absolute path is not allowed (paths are relative to the story folder)"
            case .url: "a URL is not allowed (paths are relative to the story folder)"
            case .parentSegment: "a '..' or '.' segment is not allowed (nothing outside the story folder is read)"
            case .backslash: "a backslash is not allowed (use '/' between folders)"
            case .nul: "a NUL character is not allowed"
            case .controlCharacter: "a control character is not allowed"
            case .emptySegment: "an empty segment ('//' or a trailing '/') is not allowed"
            case .tooLong(let n): "the path is \(n) bytes long (at most \(AssetPath.maximumLength))"
            }
        }
    }

    /// Longest accepted path, in UTF-8 bytes.
    public static let maximumLength = 1024

    /// Validates `raw` against the format's path rules.
    public init(validating raw: String) throws(Problem) {
        if raw.isEmpty { throw .empty }
        if raw.utf8.count > Self.maximumLength { throw .tooLong(raw.utf8.count) }
        if raw.unicodeScalars.contains("\0") { throw .nul }
        if raw.contains("\\") { throw .backslash }
        if raw.hasPrefix("/") || raw.hasPrefix("~") { throw .absolute }
        if raw.contains("://") || raw.lowercased().hasPrefix("data:") || raw.lowercased().hasPrefix("file:") {
            throw .url
        }
        if raw.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { throw .controlCharacter }
        let segments = raw.split(separator: "/", omittingEmptySubsequences: false)
        for segment in segments {
            if segment.isEmpty { throw .emptySegment }
            if segment == ".." || segment == "." { throw .parentSegment }
        }
        self.value = raw
    }

    /// The file name's extension, lowercased (`png`, `txt`, `ogg`...), or "" when there is none.
    public var fileExtension: String {
        guard let last = value.split(separator: "/").last, let dot = last.lastIndex(of: ".") else { return "" }
        return String(last[last.index(after: dot)...]).lowercased()
    }

    public var description: String { value }

    public static func < (lhs: AssetPath, rhs: AssetPath) -> Bool { lhs.value < rhs.value }
}
