#if canImport(Glibc)
import Glibc
#endif

/// Byte searches for ASCII words in a story's text, letters compared without case (HTML's tag names and
/// Harlowe's macro names are). Foundation's `range(of:options: .caseInsensitive)` goes through CFString on
/// Linux and cost more than the rest of opening a 1 MB story (pajama-bench twine, session 4).
enum ASCIISearch {
    /// Whether `text` holds `word` (ASCII, lower case).
    static func contains(_ text: String, _ word: StaticString) -> Bool {
        var text = text
        return text.withUTF8 { find(word, in: $0, from: 0) != nil }
    }

    /// The position of `needle` (ASCII, lower case) in `bytes` from `start`, letters matched without regard to
    /// case.
    static func find(_ needle: StaticString, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        let pattern = UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount)
        guard let base = bytes.baseAddress, pattern.count > 0, start >= 0 else { return pattern.isEmpty ? start : nil }
        let first = pattern[0]
        let isLetter = first >= UInt8(ascii: "a") && first <= UInt8(ascii: "z")
        var index = start
        let last = bytes.count - pattern.count
        while index <= last {
            if isLetter {
                guard lower(bytes[index]) == first else {
                    index += 1
                    continue
                }
            } else {
                // Not a letter: the first byte by memchr, so the scan costs the memory's time, not a loop's.
                guard let hit = memchr(base + index, Int32(first), last - index + 1) else { return nil }
                index = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            }
            var matched = true
            for offset in 1..<pattern.count where lower(bytes[index + offset]) != pattern[offset] {
                matched = false
                break
            }
            if matched { return index }
            index += 1
        }
        return nil
    }

    /// `byte` in lower case when it is an ASCII capital.
    static func lower(_ byte: UInt8) -> UInt8 { byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte }
}
