import PajamaBasics
import Testing

/// `containsBytes` finds what `contains` finds for ASCII words, anywhere in a text (first, last, overlapping
/// near misses), in texts of every size.
@Suite struct ByteSearchTests {
    @Test func findsWhatContainsFindsForASCIIWords() {
        let texts = ["", "l", "loop", "a loop", "lolooop", "<<audio \"x\" loop>>", "looploop", "lo op", "é loop😀", "<audio src=x>",
                     String(repeating: "lo", count: 5000) + "op"]
        let words = ["", "l", "loop", "<<audio", "<audio", "op", "oo", "x>"]
        for text in texts {
            for word in words {
                #expect(text.containsBytes(word) == text.contains(word), "\"\(text.prefix(20))\" contains \"\(word)\"")
            }
        }
        #expect(!"loo".containsBytes("loop"))
        #expect(("x" + String(repeating: "y", count: 100_000) + "loop").containsBytes("loop"))
    }
}
