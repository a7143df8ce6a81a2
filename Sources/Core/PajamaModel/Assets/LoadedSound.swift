/// Names a sound uniquely across stories and story versions (also its sample name on the server).
public struct SoundKey: Hashable, Sendable, CustomStringConvertible {
    public var storyId: String
    public var storyVersion: String?
    public var path: AssetPath

    public init(storyId: String, storyVersion: String?, path: AssetPath) {
        self.storyId = storyId
        self.storyVersion = storyVersion
        self.path = path
    }

    public var description: String { "\(storyId)@\(storyVersion ?? "-"):\(path.value)" }
}

/// A sound the engine holds ready to play (for PulseAudio: uploaded and confirmed by the server).
public struct LoadedSound: Hashable, Sendable {
    public var key: SoundKey
    public var frames: Int
    public var sampleRate: Int
    public var channels: Int
    /// Bytes of PCM the engine holds for it (for cache budgets).
    public var byteCount: Int

    public init(key: SoundKey, frames: Int, sampleRate: Int, channels: Int, byteCount: Int) {
        self.key = key
        self.frames = frames
        self.sampleRate = sampleRate
        self.channels = channels
        self.byteCount = byteCount
    }

    /// Length in seconds.
    public var duration: Double { sampleRate > 0 ? Double(frames) / Double(sampleRate) : 0 }
}
