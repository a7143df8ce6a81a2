/// A page's background sound (docs/story-format.md, "Background sound"): a sound that loops under the
/// page sounds, across pages, until a page stops it or reading ends. From a `background_sound` tool
/// (`{"name": "background_sound", "args": {"sound_url": "sounds/rain.ogg"}}`; without `sound_url`: stop),
/// or an ink `# AUDIOLOOP:` tag.
public enum BackgroundSound: Hashable, Sendable {
    /// This sound loops while the page is shown (started if another or none was playing; kept if it was).
    case play(AssetPath)
    /// No background sound on this page.
    case stop

    /// The tool name in a page's `tools`.
    public static let toolName = "background_sound"

    /// The sound, nil for `stop`.
    public var path: AssetPath? {
        if case .play(let path) = self { return path }
        return nil
    }

    /// The page tool saying this.
    public var tool: Tool {
        switch self {
        case .play(let path): Tool(name: Self.toolName, args: ["sound_url": .string(path.value)], backgroundSound: self)
        case .stop: Tool(name: Self.toolName, args: [:], backgroundSound: self)
        }
    }
}
