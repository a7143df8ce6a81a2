/// A location in the story's container tree: `knot.stitch.0.c-1`, or relative (`.^.s`) to an object.
public struct Path: Equatable, Hashable, Sendable, CustomStringConvertible {
    public enum Component: Equatable, Hashable, Sendable {
        case index(Int)
        case name(String)

        var isParent: Bool { self == .name("^") }

        var text: String {
            switch self {
            case let .index(i): return String(i)
            case let .name(n): return n
            }
        }
    }

    public var components: [Component]
    public var isRelative: Bool

    public init(components: [Component] = [], isRelative: Bool = false) {
        self.components = components
        self.isRelative = isRelative
    }

    /// Parses ink's dotted form; a leading dot makes the path relative.
    public init(_ string: String) {
        // By Unicode scalar, not Character: a name may begin with a combining mark, which would join the
        // dot before it into one Character.
        var text = Substring(string).unicodeScalars[...]
        isRelative = false
        if text.first == "." {
            isRelative = true
            text = text.dropFirst()
        }
        components = text.isEmpty ? [] : text.split(separator: ".", omittingEmptySubsequences: false).map { part in
            let name = String(String.UnicodeScalarView(part))
            if let i = Int(name), i >= 0 { return .index(i) }
            return .name(name)
        }
    }

    var head: Component? { components.first }
    var lastComponent: Component? { components.last }
    var length: Int { components.count }

    var tail: Path {
        components.count >= 2 ? Path(components: Array(components.dropFirst())) : Path(components: [], isRelative: true)
    }

    func appending(_ other: Path) -> Path {
        var upward = 0
        for c in other.components {
            if c.isParent { upward += 1 } else { break }
        }
        var result = Array(components.prefix(max(0, components.count - upward)))
        result.append(contentsOf: other.components.dropFirst(upward))
        return Path(components: result)
    }

    func appending(_ component: Component) -> Path {
        Path(components: components + [component], isRelative: isRelative)
    }

    public var componentsString: String {
        let joined = components.map(\.text).joined(separator: ".")
        return isRelative ? "." + joined : joined
    }

    public var description: String { componentsString }
}
