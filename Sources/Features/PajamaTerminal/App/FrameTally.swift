/// How many frames each key brought: the frames drawn from one key to the next (the last key's up to the
/// session's end). A key answered as it should be brings one frame, or none when it changes nothing on screen;
/// frames before the first key (the first page, its picture) are not counted. `pajama-bench key-to-glass`
/// reads it from the log (`summary`, at `--log-level info`).
public struct FrameTally: Sendable, Equatable {
    /// Keys so far.
    public private(set) var keys = 0
    /// Frames drawn since the first key.
    public private(set) var frames = 0
    /// Keys that brought no frame, exactly one, and more than one.
    public private(set) var keysWithNoFrame = 0
    public private(set) var keysWithOneFrame = 0
    public private(set) var keysWithMoreFrames = 0
    private var framesOfThisKey = 0

    public init() {}

    /// A key arrived: the frames since the one before are its answer.
    public mutating func key() {
        if keys > 0 { close() }
        keys += 1
        framesOfThisKey = 0
    }

    /// A frame was drawn.
    public mutating func frame() {
        guard keys > 0 else { return }
        frames += 1
        framesOfThisKey += 1
    }

    /// The tally with the last key's frames counted.
    public var closed: FrameTally {
        var tally = self
        if tally.keys > 0 { tally.close() }
        return tally
    }

    /// "frames per key 1.00: 520 keys, 0 with none, 520 with one, 0 with more"
    public var summary: String {
        let tally = closed
        let mean = tally.keys == 0 ? 0 : Double(tally.frames) / Double(tally.keys)
        let rounded = (mean * 100).rounded() / 100
        return "frames per key \(rounded): \(tally.keys) keys, \(tally.keysWithNoFrame) with none, "
            + "\(tally.keysWithOneFrame) with one, \(tally.keysWithMoreFrames) with more"
    }

    private mutating func close() {
        switch framesOfThisKey {
        case 0: keysWithNoFrame += 1
        case 1: keysWithOneFrame += 1
        default: keysWithMoreFrames += 1
        }
        framesOfThisKey = 0
    }
}
