import PajamaModel

/// The sound engine's state as a value, for the status line and the `m` `+` `-` keys; only the controller
/// reads the engine.
public struct SoundStatus: Sendable, Equatable {
    /// `.disabled` also when there is no engine at all (`--no-sound`).
    public var state: SoundState
    /// Volume in percent (0...100).
    public var volume: Int
    public var isMuted: Bool

    public init(state: SoundState, volume: Int = 100, isMuted: Bool = false) {
        self.state = state
        self.volume = volume
        self.isMuted = isMuted
    }

    /// No sound engine (`--no-sound`).
    public static let disabled = SoundStatus(state: .disabled)

    /// What `m`, `+` and `-` say when there is no sound to change; nil when there is.
    var offNotice: String? {
        switch state {
        case .disabled: "sound is off (--no-sound)"
        case .off: "sound is off (no server)"
        case .sampleCache, .stream, .muted: nil
        }
    }

    /// The right part of the status line.
    var text: String {
        switch state {
        case .disabled: "sound: off"
        case .sampleCache: "sound: on \(volume)%"
        case .stream: "sound: on (stream) \(volume)%"
        case .muted: "sound: muted"
        case .off: "sound: off (no server)"
        }
    }
}
