/// Byte searches for ASCII words in passage text, letters compared without case. Foundation's
/// `range(of:options: .caseInsensitive)` goes through CFString on Linux and cost more than the rest of opening
/// a 1 MB story (pajama-bench twine, session 4).
enum ASCIISearch {
    /// Whether `text` holds `word` (ASCII), ASCII letters compared without case.
    static func contains(_ text: String, _ word: String) -> Bool {
        let needle = Array(word.utf8).map(lower)
        guard let first = needle.first else { return true }
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.count >= needle.count else { return false }
            var index = 0
            let last = bytes.count - needle.count
            while index <= last {
                if lower(bytes[index]) == first {
                    var offset = 1
                    while offset < needle.count, lower(bytes[index + offset]) == needle[offset] { offset += 1 }
                    if offset == needle.count { return true }
                }
                index += 1
            }
            return false
        }
    }

    private static func lower(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }
}
