/// `*rand`'s generator, the one ChoiceScript's randomtest draws from: David Bau's seedrandom (the
/// `seedrandom.js` beside randomtest.js), an ARC4 stream keyed with the seed's decimal text, whose first 256
/// outputs are thrown away; a number in [0, 1) is made of at least six outputs (53 significant bits). With the
/// same seed, `pajama play --seed S` and `node randomtest.js seed=S` draw the same numbers (docs/choicescript.md,
/// "`*rand`"). The whole state (the 256-byte permutation and its two indices) is kept in `CSState.random`,
/// so a saved reading goes on with the same numbers.
enum CSRandom {
    /// The ARC4 permutation and its indices, saved as 516 hex digits (the permutation, then `i`, then `j`).
    struct State: Codable, Equatable, Sendable {
        var permutation: [UInt8]
        var i: UInt8
        var j: UInt8

        /// The generator seedrandom makes for `Math.seedrandom(seed)`, `seed` a JavaScript number whose
        /// text (`"" + seed`) is `String(seed)`: true of every integer below 2^53 in magnitude.
        init(seed: Int) {
            self.init(key: Self.key(String(seed)))
        }

        /// seedrandom's `mixkey`: the seed's UTF-16 code units folded into at most 256 bytes.
        static func key(_ seed: String) -> [UInt8] {
            var key: [Int] = []
            var smear = 0
            for (index, unit) in seed.utf16.enumerated() {
                let slot = index & 0xFF
                // JavaScript: `smear ^= key[slot] * 19`, where a slot not yet set (NaN) counts as 0.
                smear ^= (slot < key.count ? key[slot] : 0) * 19
                let value = (smear + Int(unit)) & 0xFF
                if slot < key.count { key[slot] = value } else { key.append(value) }
            }
            return key.map { UInt8($0) }
        }

        /// ARC4's key schedule with `key` (an empty key is `[0]`), then 256 outputs discarded.
        init(key: [UInt8]) {
            let key = key.isEmpty ? [0] : key
            var permutation = (0...255).map { UInt8($0) }
            var j = 0
            for i in 0..<256 {
                j = (j + Int(permutation[i]) + Int(key[i % key.count])) & 0xFF
                permutation.swapAt(i, j)
            }
            self.permutation = permutation
            i = 0
            self.j = 0
            _ = next(256)
        }

        /// The next `count` ARC4 outputs as one number, the first the most significant (seedrandom's `g`);
        /// `count` is at most 6 but for the discarded start.
        mutating func next(_ count: Int) -> UInt64 {
            var result: UInt64 = 0
            for _ in 0..<count {
                i &+= 1
                let t = permutation[Int(i)]
                j &+= t
                let u = permutation[Int(j)]
                permutation[Int(i)] = u
                permutation[Int(j)] = t
                result = (result << 8 | UInt64(permutation[Int(t &+ u)])) & 0xFFFF_FFFF_FFFF
            }
            return result
        }

        init(from decoder: any Decoder) throws {
            let text = try decoder.singleValueContainer().decode(String.self)
            func nibble(_ digit: UInt8) -> UInt8? {
                switch digit {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
                default: nil
                }
            }
            var bytes: [UInt8] = []
            var digits = text.utf8.makeIterator()
            while let high = digits.next() {
                guard let low = digits.next(), let top = nibble(high), let bottom = nibble(low) else { break }
                bytes.append(top << 4 | bottom)
            }
            guard bytes.count == 258, Set(bytes.prefix(256)).count == 256 else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not an ARC4 state (516 hex digits): \(text.prefix(40))"))
            }
            permutation = Array(bytes.prefix(256))
            i = bytes[256]
            j = bytes[257]
        }

        func encode(to encoder: any Encoder) throws {
            let digits = Array("0123456789abcdef".utf8)
            var text: [UInt8] = []
            text.reserveCapacity(516)
            for byte in permutation + [i, j] {
                text.append(digits[Int(byte >> 4)])
                text.append(digits[Int(byte & 0xF)])
            }
            var container = encoder.singleValueContainer()
            try container.encode(String(decoding: text, as: UTF8.self))
        }
    }

    /// The next number in [0, 1), advancing `state` (seedrandom's `Math.random`): six outputs over 2^48,
    /// lengthened one output at a time until 52 bits are significant, then cut to 53 bits. Every step is
    /// exact in JavaScript's doubles, so integer arithmetic gives the same number.
    static func next(_ state: inout State) -> Double {
        var numerator = state.next(6)
        var denominator = 0x1.0p48
        var extra: UInt64 = 0
        while numerator < 1 << 52 {
            numerator = (numerator + extra) << 8
            denominator *= 256
            extra = state.next(1)
        }
        while numerator >= 1 << 53 {
            numerator >>= 1
            denominator /= 2
            extra >>= 1
        }
        return Double(numerator + extra) / denominator
    }
}
