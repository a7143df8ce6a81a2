import PajamaJSON

/// A `{ "name": ..., "args": {...} }` entry of a page's `tools`.
///
/// Unknown names and triggers are kept (so validation can warn about them) and ignored by the reader.
public struct Tool: Hashable, Sendable {
    public var name: String
    public var args: [String: JSON]
    /// The decoded sound effect when `name` is `sound_effect` with a known trigger and a valid path.
    public var soundEffect: SoundEffect?
    /// The decoded background sound when `name` is `background_sound` (a valid `sound_url`, or none: stop).
    public var backgroundSound: BackgroundSound?

    public init(name: String, args: [String: JSON] = [:], soundEffect: SoundEffect? = nil, backgroundSound: BackgroundSound? = nil) {
        self.name = name
        self.args = args
        self.soundEffect = soundEffect
        self.backgroundSound = backgroundSound
    }
}

/// A `sound_effect` tool the reader acts on.
public struct SoundEffect: Hashable, Sendable {
    public var soundURL: AssetPath
    public var trigger: SoundTrigger
    /// What the sound is, in words (`args.caption`: "gulls cry"): printed in plain mode when it plays, and
    /// shown by the full-screen reader when captions are on (docs/story-format.md, "Captions").
    public var caption: String?

    public init(soundURL: AssetPath, trigger: SoundTrigger, caption: String? = nil) {
        self.soundURL = soundURL
        self.trigger = trigger
        self.caption = caption
    }
}

/// When a sound effect plays.
public enum SoundTrigger: String, Hashable, Sendable {
    /// When the page is entered.
    case pageEnter = "page_enter"
    /// When the reader taps (presses the advance key) on the page.
    case tap
}
