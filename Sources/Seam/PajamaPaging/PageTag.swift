/// One ink tag as the reader understands it (docs/ink.md, "Tags"): Pajama's own (`# image: images/harbour.png`,
/// `# sound: sounds/bell.ogg`, `# tap_sound: ...`, `# critical`, `# page`) and Inky's web-export tags
/// (`# IMAGE: ...`, `# AUDIO: ...`, `# AUDIOLOOP: path|none`, `# BACKGROUND: path|none`, `# CLASS: name`,
/// `# CLEAR`, `# RESTART`), the accessibility tags `# alt: words` (a picture's) and `# caption: words` (a
/// sound's), and the global `# title: ...`, `# author: ...`, `# theme: dark|light`. Any other
/// tag is `.other` and ignored by the reader.
public enum PageTag: Hashable, Sendable {
    /// `# image: path` (also Inky's `# IMAGE:`): the picture of the line's page.
    case image(String)
    /// `# sound: path` (also Inky's `# AUDIO:`): played when the line's page is entered.
    case sound(String)
    case tapSound(String)
    /// `# AUDIOLOOP: path`: a background sound looping from the line's page on; nil for `# AUDIOLOOP: none`.
    case loop(String?)
    /// `# BACKGROUND: path`: the picture of every page from here on that has no `image` of its own; nil for
    /// `# BACKGROUND: none`.
    case background(String?)
    /// `# alt: words`: what the picture of the line's page shows, in words (its `imageAlt`).
    case alt(String)
    /// `# caption: words`: what the sound tagged before it on the line is, in words (its `caption`).
    case caption(String)
    /// `# CLASS: name`: the line's style, when the name is one Pajama knows (`PageMarkup.attributes(forClass:)`).
    case styleClass(String)
    case critical
    /// `# page` (also Inky's `# CLEAR`): the line starts a new page.
    case page
    /// `# RESTART`: the story stops at this line and the reader offers the restart.
    case restart
    case title(String)
    case author(String)
    /// `# theme: dark|light` (global): the theme when the reader has not chosen one.
    case theme(String)
    case other(String)

    /// Reads a tag's text (without the `#`): a name, then `:` and a value for the tags that take one. Names are
    /// matched without regard to case or the spaces around them (Inky writes them in capitals).
    public init(_ text: String) {
        let trimmed = text.trimmingTagSpaces()
        let name: String
        let value: String?
        if let colon = trimmed.firstIndex(of: ":") {
            name = String(trimmed[..<colon]).trimmingTagSpaces().lowercased()
            value = String(trimmed[trimmed.index(after: colon)...]).trimmingTagSpaces()
        } else {
            name = trimmed.lowercased()
            value = nil
        }
        switch (name, value) {
        case ("image", let path?): self = .image(path)
        case ("sound", let path?), ("audio", let path?): self = .sound(path)
        case ("tap_sound", let path?): self = .tapSound(path)
        case ("audioloop", let path?): self = .loop(path.lowercased() == "none" ? nil : path)
        case ("background", let path?): self = .background(path.lowercased() == "none" ? nil : path)
        case ("class", let name?) where !name.isEmpty: self = .styleClass(name)
        case ("alt", let words?) where !words.isEmpty: self = .alt(words)
        case ("caption", let words?) where !words.isEmpty: self = .caption(words)
        case ("critical", nil): self = .critical
        case ("page", nil), ("clear", nil): self = .page
        case ("restart", nil): self = .restart
        case ("title", let title?): self = .title(title)
        case ("author", let author?): self = .author(author)
        case ("theme", let theme?) where !theme.isEmpty: self = .theme(theme.lowercased())
        default: self = .other(trimmed)
        }
    }

    /// The asset path the tag names, with its field name for messages (`image`, `sound`, `tap_sound`,
    /// `audioloop`, `background`).
    public var asset: (field: String, path: String)? {
        switch self {
        case .image(let path): ("image", path)
        case .sound(let path): ("sound", path)
        case .tapSound(let path): ("tap_sound", path)
        case .loop(let path?): ("audioloop", path)
        case .background(let path?): ("background", path)
        case .loop(nil), .background(nil), .styleClass, .alt, .caption, .critical, .page, .restart, .title, .author, .theme, .other: nil
        }
    }

    /// True when a `# alt:` among `tags` (one line's) is the background picture's alt text: the line sets the
    /// background and names no picture of its own.
    public static func altIsBackgrounds(in tags: [PageTag]) -> Bool {
        var background = false
        for tag in tags {
            switch tag {
            case .image: return false
            case .background(_?): background = true
            default: break
            }
        }
        return background
    }

    /// True when the asset the tag names is a picture (else a sound).
    public var namesPicture: Bool {
        switch self {
        case .image, .background: true
        default: false
        }
    }
}

extension StringProtocol {
    /// Without the spaces and tabs at either end (ink keeps them in tag text).
    public func trimmingTagSpaces() -> String {
        var start = startIndex
        var end = endIndex
        while start < end, self[start] == " " || self[start] == "\t" { start = index(after: start) }
        while end > start, self[index(before: end)] == " " || self[index(before: end)] == "\t" { end = index(before: end) }
        return String(self[start..<end])
    }
}
