import PajamaModel

/// What an ink story's tags set for every page from there on, until changed: the background sound
/// (`# AUDIOLOOP:`) and the background picture (`# BACKGROUND:`, with its alt text: a `# alt:` on the same
/// line, when the line has no `# image:`). Carried from beat to beat (a beat starts
/// with its parent's scene at the choice that led to it) and saved with a beat's origin, so a resumed
/// reading hears and sees what it did (docs/ink.md, "Inky's tags").
public struct PageScene: Hashable, Sendable {
    public var loop: AssetPath?
    public var background: AssetPath?
    /// What `background` shows, in words.
    public var backgroundAlt: String?

    public init(loop: AssetPath? = nil, background: AssetPath? = nil, backgroundAlt: String? = nil) {
        self.loop = loop
        self.background = background
        self.backgroundAlt = background == nil ? nil : backgroundAlt
    }

    /// The scene after one line's tags, in order: a `# alt:` on a line that sets the background and has no
    /// `# image:` is the background's alt text (`PageTag.altIsBackgrounds(in:)`).
    public mutating func apply(line tags: [PageTag]) {
        let altIsBackgrounds = PageTag.altIsBackgrounds(in: tags)
        for tag in tags {
            if altIsBackgrounds, case .alt(let words) = tag, background != nil { backgroundAlt = words }
            apply(tag)
        }
    }

    /// The scene after `tag` (a tag with a path that breaks the rules changes nothing here: the pager
    /// reports it).
    public mutating func apply(_ tag: PageTag) {
        switch tag {
        case .loop(let path): loop = path.flatMap { try? AssetPath(validating: $0) }
        case .background(let path):
            background = path.flatMap { try? AssetPath(validating: $0) }
            backgroundAlt = nil
        default: break
        }
    }

    /// The scene after the tags of `lines` and the choice point's tags, in order.
    public func after(_ lines: [Pager.Line]) -> PageScene {
        var scene = self
        for line in lines { scene.apply(line: line.tags.map(PageTag.init)) }
        return scene
    }
}
