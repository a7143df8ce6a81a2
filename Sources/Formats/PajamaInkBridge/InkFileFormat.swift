/// How a compiled ink story is known: by its content, whatever the file is called (docs/ink.md, "Which files
/// are ink"). A compiled story is a JSON object with a top-level `inkVersion` key (`story.ink.json`,
/// `story.json`, `main.json`, ...), or a web export of one: a JavaScript file that is one assignment of it
/// (`var storyContent = {...};` as Inky writes `story.js`, `window.storydata = {...};` as other exports do,
/// `let`/`const`/no keyword, any name), either possibly after a UTF-8 byte order mark. A Pajama package's
/// `story.json` has no `inkVersion`.
public enum InkFileFormat {
    /// The bytes of the JSON object in `bytes` when they are a compiled ink story (the byte order marks and
    /// the web export's assignment, `var storyContent = ` or `window.storydata = `, and `;` left out), nil
    /// when they are not.
    public static func json(in bytes: [UInt8]) -> ArraySlice<UInt8>? {
        guard let object = object(in: bytes[...]), hasInkVersion(object) else { return nil }
        return object
    }

    /// Whether the first bytes of a file can begin a compiled ink story (a cheap test before reading it all).
    public static func mayBeInk(head: [UInt8]) -> Bool {
        let rest = skipping(head[...])
        guard rest.first != UInt8(ascii: "{") else { return true }
        // The head may end inside the assignment's name: what is there must be one's beginning.
        guard let afterName = assignee(in: rest) else {
            return rest.allSatisfy { isNameByte($0) || isSpace($0) || $0 == UInt8(ascii: ".") }
        }
        let next = skipping(afterName)
        return next.isEmpty || next.first == UInt8(ascii: "=")
    }

    /// The file names a folder's compiled ink story is looked for under, in order, when none ends in
    /// `.ink.json` (inklecate's own name); over HTTP, where a folder cannot be listed, the only ones tried.
    public static let usualNames = ["story.json", "story.js"]

    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// The object: `{...}` after byte order marks and white space, or in an assignment
    /// (`var storyContent = {...};`, `window.storydata = {...}`).
    private static func object(in bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        var rest = skipping(bytes)
        if rest.first != UInt8(ascii: "{"), let afterName = assignee(in: rest) {
            rest = skipping(afterName)
            guard rest.first == UInt8(ascii: "=") else { return nil }
            rest = skipping(rest.dropFirst())
            // The end: the last `}`, with only `;` and white space after it.
            guard let close = rest.lastIndex(of: UInt8(ascii: "}")),
                rest[(close + 1)...].allSatisfy({ $0 == UInt8(ascii: ";") || isSpace($0) })
            else { return nil }
            rest = rest[...close]
        }
        guard rest.first == UInt8(ascii: "{") else { return nil }
        return rest
    }

    private static func skipping(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var rest = bytes
        while true {
            if rest.starts(with: byteOrderMark) {
                rest = rest.dropFirst(3)
            } else if let first = rest.first, isSpace(first) {
                rest = rest.dropFirst()
            } else {
                return rest
            }
        }
    }

    /// What follows the left side of an assignment at the start of `bytes`: an optional `var`, `let` or
    /// `const`, then a name or a dotted path of names (`storyContent`, `window.storydata`); nil when
    /// `bytes` does not start with one (or the name runs to the end).
    private static func assignee(in bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        var rest = bytes
        for keyword in ["var", "let", "const"] {
            let word = Array(keyword.utf8)
            if rest.starts(with: word), let after = rest.dropFirst(word.count).first, isSpace(after) {
                rest = skipping(rest.dropFirst(word.count))
                break
            }
        }
        while true {
            guard let first = rest.first, isNameByte(first), !(first >= 0x30 && first <= 0x39) else { return nil }
            rest = rest.drop(while: isNameByte)
            guard !rest.isEmpty else { return nil }
            guard rest.first == UInt8(ascii: ".") else { return rest }
            rest = rest.dropFirst()
        }
    }

    /// A byte of a JavaScript name (ASCII letters, digits, `_` and `$`).
    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x5F || byte == 0x24
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }

    /// Whether the object starting at `object` has the key `inkVersion` at its top level (not in a nested
    /// object): a scan of the bytes that follows strings and nesting, without building anything.
    private static func hasInkVersion(_ object: ArraySlice<UInt8>) -> Bool {
        let key = Array("inkVersion".utf8)
        var depth = 0
        var index = object.startIndex
        while index < object.endIndex {
            let byte = object[index]
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth <= 0 { return false }
            case UInt8(ascii: "\""):
                let start = index + 1
                var end = start
                while end < object.endIndex, object[end] != UInt8(ascii: "\"") {
                    end += object[end] == UInt8(ascii: "\\") ? 2 : 1
                }
                guard end < object.endIndex else { return false }
                if depth == 1, object[start..<end].elementsEqual(key) {
                    // A key (followed by a colon), not a value that happens to read "inkVersion".
                    var next = end + 1
                    while next < object.endIndex, isSpace(object[next]) { next += 1 }
                    if next < object.endIndex, object[next] == UInt8(ascii: ":") { return true }
                }
                index = end
            default:
                break
            }
            index += 1
        }
        return false
    }
}
