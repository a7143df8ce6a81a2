/// What read aloud needs of the sound layer (PajamaAudio's `SpeechClient.live`; a fake in unit tests).
public struct SpeechClient: Sendable {
    /// Synthesises `text` and starts saying it, after what is being said or at once (`interrupting`);
    /// false when it is not said (no server, muted synthesis cancelled by `stop`).
    public var say: @Sendable (_ text: String, _ interrupting: Bool) async -> Bool
    /// Stops what is being said and the synthesis under way, at once.
    public var stop: @Sendable () -> Void

    public init(say: @escaping @Sendable (_ text: String, _ interrupting: Bool) async -> Bool, stop: @escaping @Sendable () -> Void) {
        self.say = say
        self.stop = stop
    }
}
