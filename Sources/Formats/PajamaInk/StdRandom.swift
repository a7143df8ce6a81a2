/// The random generator of the reference runtime the differential tests use (blade-ink, behind `bink`):
/// Rust's `StdRng` (ChaCha with 12 rounds) seeded by `seed_from_u64` (the seed spread over 32 bytes by PCG32).
/// RANDOM, shuffles and LIST_RANDOM take the first words of a generator seeded afresh from the story seed,
/// so the same seed gives the same story in both runtimes.
struct StdRandom {
    private var key: [UInt32] = []
    private var counter: UInt64 = 0
    private var buffer: [UInt32] = []
    private var position = 0

    init(seed: UInt64) {
        var state = seed
        for _ in 0..<8 {
            state = state &* 6_364_136_223_846_793_005 &+ 11_634_580_027_462_260_723
            let xorshifted = UInt32(truncatingIfNeeded: ((state >> 18) ^ state) >> 27)
            let rot = UInt32(truncatingIfNeeded: state >> 59)
            key.append(xorshifted >> rot | xorshifted << ((32 &- rot) & 31))
        }
    }

    /// Seeded as blade-ink does from an ink int (`seed as u64`, sign-extended).
    init(inkSeed: Int) {
        self.init(seed: UInt64(bitPattern: Int64(Int32(truncatingIfNeeded: inkSeed))))
    }

    mutating func nextUInt32() -> UInt32 {
        if position >= buffer.count {
            buffer = block()
            counter &+= 1
            position = 0
        }
        defer { position += 1 }
        return buffer[position]
    }

    private func block() -> [UInt32] {
        var x: [UInt32] = [
            0x6170_7865, 0x3320_646E, 0x7962_2D32, 0x6B20_6574,
            key[0], key[1], key[2], key[3], key[4], key[5], key[6], key[7],
            UInt32(truncatingIfNeeded: counter), UInt32(truncatingIfNeeded: counter >> 32), 0, 0,
        ]
        let initial = x
        @inline(__always) func rotl(_ v: UInt32, _ n: UInt32) -> UInt32 { v << n | v >> (32 - n) }
        @inline(__always) func quarter(_ a: Int, _ b: Int, _ c: Int, _ d: Int) {
            x[a] = x[a] &+ x[b]; x[d] = rotl(x[d] ^ x[a], 16)
            x[c] = x[c] &+ x[d]; x[b] = rotl(x[b] ^ x[c], 12)
            x[a] = x[a] &+ x[b]; x[d] = rotl(x[d] ^ x[a], 8)
            x[c] = x[c] &+ x[d]; x[b] = rotl(x[b] ^ x[c], 7)
        }
        for _ in 0..<6 {
            quarter(0, 4, 8, 12); quarter(1, 5, 9, 13); quarter(2, 6, 10, 14); quarter(3, 7, 11, 15)
            quarter(0, 5, 10, 15); quarter(1, 6, 11, 12); quarter(2, 7, 8, 13); quarter(3, 4, 9, 14)
        }
        for i in 0..<16 { x[i] = x[i] &+ initial[i] }
        return x
    }
}
