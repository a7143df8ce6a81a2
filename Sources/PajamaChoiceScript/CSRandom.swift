/// `*rand`'s generator: SplitMix64, whose whole state is one integer kept in `CSState.random`, so a saved
/// reading goes on with the same numbers.
enum CSRandom {
    /// The generator's state, saved as 16 hex digits (a JSON number cannot hold every 64-bit integer).
    struct State: Codable, Equatable, Sendable {
        var value: UInt64

        init(_ value: UInt64) { self.value = value }

        init(from decoder: any Decoder) throws {
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let value = UInt64(text, radix: 16) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not 16 hex digits: \(text)"))
            }
            self.value = value
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(String(value, radix: 16))
        }
    }

    /// The next number in [0, 1), advancing `state`.
    static func next(_ state: inout State) -> Double {
        state.value &+= 0x9E37_79B9_7F4A_7C15
        var z = state.value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Double(z >> 11) * 0x1.0p-53
    }
}
