/// One ink tag as the reader understands it (docs/ink.md, "Tags"): `# image: images/harbour.png`,
/// `# sound: sounds/bell.ogg`, `# tap_sound: ...`, `# critical`, `# page`, and the global `# title: ...`,
/// `# author: ...`. Any other tag is `.other` and ignored by the reader.
public enum InkTag: Hashable, Sendable {
    case image(String)
    case sound(String)
    case tapSound(String)
    case critical
    case page
    case title(String)
    case author(String)
    case other(String)

    /// Reads a tag's text (without the `#`): a name, then `:` and a value for the tags that take one. Names are
    /// matched without regard to case or the spaces around them.
    public init(_ text: String) {
        let trimmed = text.trimmingInkSpaces()
        let name: String
        let value: String?
        if let colon = trimmed.firstIndex(of: ":") {
            name = String(trimmed[..<colon]).trimmingInkSpaces().lowercased()
            value = String(trimmed[trimmed.index(after: colon)...]).trimmingInkSpaces()
        } else {
            name = trimmed.lowercased()
            value = nil
        }
        switch (name, value) {
        case ("image", let path?): self = .image(path)
        case ("sound", let path?): self = .sound(path)
        case ("tap_sound", let path?): self = .tapSound(path)
        case ("critical", nil): self = .critical
        case ("page", nil): self = .page
        case ("title", let title?): self = .title(title)
        case ("author", let author?): self = .author(author)
        default: self = .other(trimmed)
        }
    }

    /// The asset path the tag names, with its field name for messages (`image`, `sound`, `tap_sound`).
    public var asset: (field: String, path: String)? {
        switch self {
        case .image(let path): ("image", path)
        case .sound(let path): ("sound", path)
        case .tapSound(let path): ("tap_sound", path)
        case .critical, .page, .title, .author, .other: nil
        }
    }
}

extension StringProtocol {
    /// Without the spaces and tabs at either end (ink keeps them in tag text).
    func trimmingInkSpaces() -> String {
        var start = startIndex
        var end = endIndex
        while start < end, self[start] == " " || self[start] == "\t" { start = index(after: start) }
        while end > start, self[index(before: end)] == " " || self[index(before: end)] == "\t" { end = index(before: end) }
        return String(self[start..<end])
    }
}
