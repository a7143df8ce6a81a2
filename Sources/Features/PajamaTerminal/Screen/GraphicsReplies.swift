/// The terminal's answers to `GraphicsProbe.query`, parsed from the bytes it sends back, in whatever pieces
/// they arrive, with anything else mixed in (keys typed meanwhile, replies to nothing we asked) set aside.
///
/// The Primary Device Attributes reply comes last (terminals answer in order, and every terminal answers
/// it), so once it is in, every reply that will come is in: `isComplete`.
public struct GraphicsReplies: Sendable, Equatable {
    /// The Primary Device Attributes (`CSI ? 62 ; 4 ; 22 c`: 4 is sixel graphics), once they came.
    public private(set) var deviceAttributes: [Int]?
    /// The kitty graphics query's answer: true for "OK", false for an error (the protocol is not usable).
    public private(set) var kitty: Bool?
    /// The largest sixel picture, in pixels (XTSMGRAPHICS `CSI ? 2 ; 0 ; width ; height S`).
    public private(set) var sixelGeometry: Size?
    /// One cell in pixels (the reply to `CSI 16 t`: `CSI 6 ; height ; width t`).
    public private(set) var cellSize: Size?
    /// The background colour (0xRRGGBB; the reply to OSC 11: `OSC 11 ; rgb:RRRR/GGGG/BBBB ST`).
    public private(set) var background: UInt32?
    /// Bytes that were not part of a reply (typed keys), in order.
    public private(set) var other: [UInt8] = []
    /// Bytes of a reply not yet complete.
    private var pending: [UInt8] = []

    public struct Size: Sendable, Equatable {
        public var width: Int
        public var height: Int
        public init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }
    }

    public init() {}

    /// Replies parsed from `bytes` at once (tests).
    public init(_ bytes: [UInt8]) { feed(bytes) }

    /// Whether the last reply (the device attributes) has come.
    public var isComplete: Bool { deviceAttributes != nil }
    /// Whether the device attributes say sixel graphics.
    public var sixel: Bool { deviceAttributes?.dropFirst().contains(4) ?? false }
    /// Whether a reply was cut off (bytes kept until the rest comes).
    public var isPartial: Bool { !pending.isEmpty }

    /// Takes the next bytes that came.
    public mutating func feed(_ bytes: [UInt8]) {
        pending += bytes
        var index = 0
        while index < pending.count {
            guard pending[index] == 0x1B else {
                other.append(pending[index])
                index += 1
                continue
            }
            guard let end = sequenceEnd(from: index) else { break }  // cut off: wait for the rest
            interpret(Array(pending[index..<end]))
            index = end
        }
        pending.removeFirst(index)
    }

    /// Where the escape sequence at `start` ends (one past its last byte), or nil when it is not all here.
    private func sequenceEnd(from start: Int) -> Int? {
        guard start + 1 < pending.count else { return nil }
        switch pending[start + 1] {
        case UInt8(ascii: "["):
            var index = start + 2
            while index < pending.count {
                if (0x40...0x7E).contains(pending[index]) { return index + 1 }
                if !(0x20...0x3F).contains(pending[index]) { return index }  // broken: drop what came so far
                index += 1
            }
            return nil
        case UInt8(ascii: "_"), UInt8(ascii: "P"), UInt8(ascii: "]"):
            // A string (APC, DCS, OSC) up to ST (ESC \) or BEL.
            var index = start + 2
            while index < pending.count {
                if pending[index] == 0x07 { return index + 1 }
                if pending[index] == 0x1B {
                    guard index + 1 < pending.count else { return nil }
                    return pending[index + 1] == UInt8(ascii: "\\") ? index + 2 : index
                }
                index += 1
            }
            return nil
        default:
            return start + 2
        }
    }

    /// "RRRR/GGGG/BBBB" (1 to 4 hex digits a channel, as X11 colour names) as 0xRRGGBB.
    static func color(_ text: Substring) -> UInt32? {
        let channels = text.split(separator: "/", omittingEmptySubsequences: false)
        guard channels.count == 3 else { return nil }
        var rgb: UInt32 = 0
        for channel in channels {
            guard (1...4).contains(channel.count), let value = UInt32(channel, radix: 16) else { return nil }
            let maximum = (UInt32(1) << (4 * UInt32(channel.count))) - 1
            rgb = rgb << 8 | (value * 255 + maximum / 2) / maximum
        }
        return rgb
    }

    private mutating func interpret(_ sequence: [UInt8]) {
        guard sequence.count >= 3 else { return }
        if sequence[1] == UInt8(ascii: "_"), sequence[2] == UInt8(ascii: "G") {
            // ESC _ G i=31;OK ESC \
            let body = String(decoding: sequence.dropFirst(3).prefix { $0 != 0x1B && $0 != 0x07 }, as: UTF8.self)
            let parts = body.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.first?.split(separator: ",").contains("i=31") == true { kitty = parts.count == 2 && parts[1] == "OK" }
            return
        }
        if sequence[1] == UInt8(ascii: "]") {
            let body = String(decoding: sequence.dropFirst(2).prefix { $0 != 0x1B && $0 != 0x07 }, as: UTF8.self)
            if body.hasPrefix("11;rgb:") { background = Self.color(body.dropFirst(7)) ?? background }
            return
        }
        guard sequence[1] == UInt8(ascii: "["), let final = sequence.last else { return }
        let body = sequence.dropFirst(2).dropLast()
        let isPrivate = body.first == UInt8(ascii: "?")
        let numbers = String(decoding: body.drop { $0 == UInt8(ascii: "?") }, as: UTF8.self)
            .split(separator: ";", omittingEmptySubsequences: false).map { $0.isEmpty ? 0 : Int($0) }  // empty: the default, 0
        guard numbers.allSatisfy({ $0 != nil }) else { return }
        let values = numbers.compactMap { $0 }
        switch (isPrivate, final) {
        case (true, UInt8(ascii: "c")):
            deviceAttributes = values
        case (true, UInt8(ascii: "S")) where values.count == 4 && values[0] == 2 && values[1] == 0 && values[2] > 0 && values[3] > 0:
            sixelGeometry = Size(width: values[2], height: values[3])
        case (false, UInt8(ascii: "t")) where values.count == 3 && values[0] == 6 && values[1] > 0 && values[2] > 0:
            cellSize = Size(width: values[2], height: values[1])
        default:
            break
        }
    }
}
