import Glibc

extension String {
    /// Whether `needle`'s UTF-8 bytes occur in this string's (memchr for its first byte, memcmp for the rest):
    /// no Unicode equivalence, as for ASCII markers in large texts, where `contains(_:)` walks the text by
    /// Character (a 1 MB story's passages searched that way were a fifth of opening it).
    public func containsBytes(_ needle: String) -> Bool {
        var haystack = self
        var needle = needle
        return haystack.withUTF8 { text in
            needle.withUTF8 { word in
                guard let first = word.first else { return false }  // as `contains`: the empty string is in none
                guard let base = text.baseAddress, let wordBase = word.baseAddress, text.count >= word.count else { return false }
                var start = 0
                while start + word.count <= text.count {
                    guard let hit = memchr(base + start, Int32(first), text.count - word.count - start + 1) else { return false }
                    let offset = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                    if memcmp(base + offset, wordBase, word.count) == 0 { return true }
                    start = offset + 1
                }
                return false
            }
        }
    }
}
