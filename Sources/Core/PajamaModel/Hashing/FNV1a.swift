/// 64-bit FNV-1a: the one hash of the project (the disk cache's names and checksums, PulseAudio sample
/// names, the test server's ETags). Fast and stable across runs and machines, unlike `Hasher`; not a
/// cryptographic hash.
public enum FNV1a {
    public static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    public static let prime: UInt64 = 0x100_0000_01b3

    /// Inlinable, so each caller's sequence type is specialised: a generic walk of a string's bytes through
    /// the protocol was most of what naming a made beat cost.
    @inlinable
    public static func hash(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var h = offsetBasis
        for b in bytes {
            h = (h ^ UInt64(b)) &* prime
        }
        return h
    }

    /// The hash of the string's UTF-8 bytes.
    @inlinable
    public static func hash(_ text: String) -> UInt64 { hash(text.utf8) }
}
