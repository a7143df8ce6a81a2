import PajamaModel
import PajamaPaging
import PajamaJSON

/// Every tag written in a compiled ink story, found by reading the JSON once without running it
/// (docs/ink.md, "Tags"): for the manifest's critical assets and for `pajama validate`.
///
/// A static tag is `{"#": "text"}` (ink versions before 21) or the strings between the `"#"` and `"/#"`
/// markers; a tag built while the story runs (`# {x}`) has other content between its markers and is
/// reported as dynamic (its text is not known until then).
struct InkTagScan {
    struct Found: Equatable {
        /// The ink path of the container the tag is in (`knot.stitch`, `0.3` for unnamed containers).
        var inkPath: String
        /// The tag's text, or nil for a dynamic tag.
        var text: String?
        /// Tags in the same container share a group (the tags of one line usually do).
        var group: Int
    }

    /// Markup in the story's text that Pajama does not know: the ink path and the tag's name (`blink`).
    struct UnknownMarkup: Equatable {
        var inkPath: String
        var name: String
    }

    private(set) var found: [Found] = []
    private(set) var unknownMarkup: [UnknownMarkup] = []
    private var groups = 0

    static func scan(_ root: JSON) -> [Found] { scanAll(root).found }

    /// The tags, and the unknown markup of the text written in the JSON (text built while the story runs is
    /// seen in pieces: a tag cut by an expression is not found).
    static func scanAll(_ root: JSON) -> InkTagScan {
        var scan = InkTagScan()
        if let content = root["root"] { scan.visit(content, path: "") }
        return scan
    }

    private mutating func visit(_ value: JSON, path: String) {
        switch value {
        case .array(let items):
            groups += 1
            let group = groups
            var open: (text: String, isStatic: Bool)?
            for (index, item) in items.enumerated() {
                if case .string(let marker) = item, marker == "#", open == nil {
                    open = ("", true)
                    continue
                }
                if case .string(let marker) = item, marker == "/#", let tag = open {
                    found.append(Found(inkPath: path, text: tag.isStatic ? tag.text : nil, group: group))
                    open = nil
                    continue
                }
                if var tag = open {
                    if case .string(let piece) = item, piece.unicodeScalars.first == "^" { tag.text += String(piece.unicodeScalars.dropFirst()) } else { tag.isStatic = false }
                    open = tag
                    continue
                }
                switch item {
                case .string(let piece) where piece.hasPrefix("^") && PageMarkup.mayHoldMarkup(piece):
                    for name in PageMarkup.parse(String(piece.dropFirst())).unknown where !unknownMarkup.contains(UnknownMarkup(inkPath: path, name: name)) {
                        unknownMarkup.append(UnknownMarkup(inkPath: path, name: name))
                    }
                case .object(let fields) where fields.count == 1 && fields[0].0 == "#":
                    if case .string(let text) = fields[0].1 { found.append(Found(inkPath: path, text: text, group: group)) }
                case .object(let fields) where index == items.count - 1:
                    for (key, child) in fields.sorted(by: { $0.0 < $1.0 }) where !key.hasPrefix("#") {
                        visit(child, path: path.isEmpty ? key : path + "." + key)
                    }
                case .array:
                    visit(item, path: path.isEmpty ? "\(index)" : path + ".\(index)")
                default:
                    break
                }
            }
        default:
            break
        }
    }

    /// The assets named by tags in a group that also holds `# critical`: critical wherever they are used.
    static func criticalAssets(_ found: [Found]) -> Set<AssetPath> {
        let criticalGroups = Set(found.filter { $0.text.map(PageTag.init) == .critical }.map(\.group))
        var paths = Set<AssetPath>()
        for tag in found where criticalGroups.contains(tag.group) {
            if let text = tag.text, let (_, value) = PageTag(text).asset, let path = try? AssetPath(validating: value) { paths.insert(path) }
        }
        return paths
    }
}
