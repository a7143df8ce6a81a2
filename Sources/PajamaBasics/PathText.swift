/// File paths as text, as `NSString`'s path methods treat them (which FoundationEssentials does not have):
/// components split on "/", trailing slashes ignored, "/" kept as the root.
public enum PathText {
    /// The last component: "/a/b/" -> "b", "/" -> "/", "" -> "".
    public static func lastComponent(_ path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        if trimmed == "/" { return "/" }
        return trimmed.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? ""
    }

    /// Without the last component: "/a/b" -> "/a", "/a" -> "/", "a" -> "", "/" -> "/".
    public static func deletingLastComponent(_ path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        if slash == trimmed.startIndex { return "/" }
        return withoutTrailingSlashes(String(trimmed[..<slash]))
    }

    /// `component` after `path` with one "/" between: ("/tmp/", "a") -> "/tmp/a", ("", "a") -> "a".
    public static func appending(_ path: String, _ component: String) -> String {
        let tail = String(component.drop { $0 == "/" })
        if path.isEmpty { return component }
        let head = withoutTrailingSlashes(path)
        if tail.isEmpty { return head }
        return head == "/" ? "/" + tail : head + "/" + tail
    }

    /// Without the last component's extension: "a/b.twee" -> "a/b", "a/.hidden" -> "a/.hidden".
    public static func deletingExtension(_ path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        let name = lastComponent(trimmed)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return trimmed }
        return String(trimmed.dropLast(name.distance(from: dot, to: name.endIndex)))
    }

    private static func withoutTrailingSlashes(_ path: String) -> String {
        var path = Substring(path)
        while path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
        return String(path)
    }
}

extension StringProtocol {
    /// With each `%XX` turned back into its byte, as Foundation's `removingPercentEncoding`: nil when a `%`
    /// is not followed by two hex digits or the bytes are not UTF-8.
    public var percentDecoded: String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var iterator = utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(Self.hexValue), let low = iterator.next().flatMap(Self.hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension StringProtocol {
    /// With every byte that may not stand in a URL path (RFC 3986: unreserved, sub-delims, ":", "@" and
    /// "/" may) written as `%XX`, as Foundation's `addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)`.
    public var percentEncodedForPath: String {
        var out = ""
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            case _ where "-._~!$&'()*+,;=:@/".utf8.contains(byte):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 15, radix: 16, uppercase: true)
            }
        }
        return out
    }
}
