import PajamaTerminal

/// How a reading is shown and heard: what `read`, the library, `host` and `join` take from their command
/// line (`ReadingOptions` in the executable parses them), and what a test or the bench sets directly.
public struct ReaderOptions: Sendable {
    /// The colour theme by name; nil: the one the reader chose last (`t`), else "default".
    public var theme: String?
    public var noSound: Bool
    /// The PulseAudio server to play on (`unix:/path`); nil: libpulse's default (PULSE_SERVER, the runtime folder).
    public var soundServer: String?
    /// The `--stats` side panel.
    public var stats: Bool
    public var readAloud: Bool
    /// The espeak-ng voice; nil: espeak-ng's default.
    public var voice: String?
    public var pictures: TerminalGraphics.Choice
    public var noTimedText: Bool
    public var plain: Bool

    public init(
        theme: String? = nil, noSound: Bool = false, soundServer: String? = nil, stats: Bool = false, readAloud: Bool = false, voice: String? = nil,
        pictures: TerminalGraphics.Choice = .auto, noTimedText: Bool = false, plain: Bool = false
    ) {
        self.theme = theme
        self.noSound = noSound
        self.soundServer = soundServer
        self.stats = stats
        self.readAloud = readAloud
        self.voice = voice
        self.pictures = pictures
        self.noTimedText = noTimedText
        self.plain = plain
    }
}
