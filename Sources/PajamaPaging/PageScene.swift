import PajamaCore

/// What an ink story's tags set for every page from there on, until changed: the background sound
/// (`# AUDIOLOOP:`) and the background picture (`# BACKGROUND:`). Carried from beat to beat (a beat starts
/// with its parent's scene at the choice that led to it) and saved with a beat's origin, so a resumed
/// reading hears and sees what it did (docs/ink.md, "Inky's tags").
public struct PageScene: Hashable, Sendable {
    public var loop: AssetPath?
    public var background: AssetPath?

    public init(loop: AssetPath? = nil, background: AssetPath? = nil) {
        self.loop = loop
        self.background = background
    }

    /// The scene after `tag` (a tag with a path that breaks the rules changes nothing here: the pager
    /// reports it).
    public mutating func apply(_ tag: PageTag) {
        switch tag {
        case .loop(let path): loop = path.flatMap { try? AssetPath(validating: $0) }
        case .background(let path): background = path.flatMap { try? AssetPath(validating: $0) }
        default: break
        }
    }

    /// The scene after the tags of `lines` and the choice point's tags, in order.
    public func after(_ lines: [Pager.Line]) -> PageScene {
        var scene = self
        for line in lines { for tag in line.tags { scene.apply(PageTag(tag)) } }
        return scene
    }
}
