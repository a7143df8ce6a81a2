import FoundationEssentials
import PajamaBasics

/// A page that asks the reader to type an answer (ChoiceScript's `*input_text` and `*input_number`, SugarCube's
/// `<<textbox>>` and `<<numberbox>>`; docs/reader.md, "Typed answers"). The answer leads to a beat as a choice
/// does: the beat `beatId(answering:)`, named by the answer itself, so a story made as it is read (whose source
/// reads the answer back out of the id, `answer(inBeatId:)`) needs no other way to be told it, and history,
/// bookmarks, progress and co-reading carry answers as they carry choices.
public struct Question: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        /// Text, of at most `Question.maximumAnswerBytes` bytes (UTF-8), blank or not.
        case text(allowsBlank: Bool)
        /// A number from `minimum` to `maximum` (whole only when `wholeNumbers`).
        case number(minimum: Double, maximum: Double, wholeNumbers: Bool)
    }

    public var kind: Kind
    /// What is asked, in a few words ("Your name"), when the story names it; nil: the page's text asks.
    public var label: String?
    /// The answer a beat is named from: `answerBeatPrefix` + `-` + the answer in base64url (the prefix is
    /// at most 20 characters: `a-` and 16 hex digits).
    public var answerBeatPrefix: String
    /// The answer a random test run gives (`pajama test`), when the format has one of its own (ChoiceScript's
    /// randomtest's answer); nil: the test runner makes one up.
    public var testAnswer: String?

    /// The answer a test types (`pajama test`, `pajama play --test-answers`): the format's own (`testAnswer`)
    /// when the question takes it, else "blah blah" for text (as ChoiceScript's randomtest) and the minimum for a number.
    public var automaticAnswer: String {
        if let testAnswer, problem(with: testAnswer) == nil { return testAnswer }
        switch kind {
        case .text: return "blah blah"
        case .number(let minimum, _, _): return Self.numberText(minimum)
        }
    }

    /// The longest answer (bytes of UTF-8) that names a beat (an id is at most 128 characters).
    public static let maximumAnswerBytes = 80

    public init(kind: Kind, label: String? = nil, answerBeatPrefix: String, testAnswer: String? = nil) {
        self.kind = kind
        self.label = label
        self.answerBeatPrefix = answerBeatPrefix
        self.testAnswer = testAnswer
    }

    /// The answer as it is taken: spaces trimmed at both ends (a number's too).
    public static func normalized(_ answer: String) -> String { answer.trimmingWhitespace }

    /// Why `answer` cannot be taken ("Please type a number from 1 to 10."), nil when it can (after `normalized`).
    public func problem(with answer: String) -> String? {
        let answer = Self.normalized(answer)
        switch kind {
        case .text(let allowsBlank):
            if answer.isEmpty, !allowsBlank { return "Please type something." }
            if answer.utf8.count > Self.maximumAnswerBytes { return "Please type at most \(Self.maximumAnswerBytes) letters." }
            if answer.contains(where: { $0.isNewline }) { return "Please type one line." }
            return nil
        case .number(let minimum, let maximum, let whole):
            let range = "from \(Self.numberText(minimum)) to \(Self.numberText(maximum))"
            guard let value = Self.number(answer) else { return "Please type a number \(range)." }
            if whole, value != value.rounded() { return "Please type a whole number \(range)." }
            if value < minimum || value > maximum { return "Please type a number \(range)." }
            return nil
        }
    }

    /// `text` as a number ("7", "-2", "3.5"), nil when it is not one.
    public static func number(_ text: String) -> Double? {
        let text = normalized(text)
        guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "+") }),
            let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// A bound as it is said: "10", "2.5".
    public static func numberText(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// What the reader is told the page wants ("a number from 1 to 10", "a name or a word, or nothing").
    public var hint: String {
        switch kind {
        case .text(let allowsBlank): allowsBlank ? "type an answer (or nothing) and press Enter" : "type an answer and press Enter"
        case .number(let minimum, let maximum, let whole):
            "type \(whole ? "a whole number" : "a number") from \(Self.numberText(minimum)) to \(Self.numberText(maximum)) and press Enter"
        }
    }

    /// The beat `answer` leads to (the answer `normalized`; it must be one `problem(with:)` takes).
    public func beatId(answering answer: String) -> String {
        answerBeatPrefix + "-" + Base64URL.encode(Array(Self.normalized(answer).utf8))
    }

    /// The beat prefix of the question whose answer named `beatId`, and the answer, when `beatId` is one.
    public static func answer(inBeatId beatId: String) -> (prefix: String, answer: String)? {
        guard beatId.hasPrefix("a-"), beatId.utf8.count >= 19 else { return nil }
        let prefix = String(beatId.prefix(18))
        let rest = beatId.dropFirst(18)
        guard rest.first == "-", let bytes = Base64URL.decode(String(rest.dropFirst())) else { return nil }
        return (prefix, String(decoding: bytes, as: UTF8.self))
    }

    /// The prefix of the answers to a question asked in beat `beatId`: `a-` and 16 hex digits of its hash.
    public static func answerBeatPrefix(askedIn beatId: String) -> String {
        let hex = String(FNV1a.hash("question:" + beatId), radix: 16)
        return "a-" + String(repeating: "0", count: 16 - hex.count) + hex
    }
}

/// base64url without padding (RFC 4648 §5): its alphabet is that of a beat id.
enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var value = 0
            for byte in chunk { value = value << 8 | Int(byte) }
            value <<= 8 * (3 - chunk.count)
            for position in 0..<(chunk.count + 1) { out.append(alphabet[(value >> (18 - 6 * position)) & 63]) }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func decode(_ text: String) -> [UInt8]? {
        var value = 0, bits = 0
        var out: [UInt8] = []
        for byte in text.utf8 {
            guard let digit = alphabet.firstIndex(of: byte) else { return nil }
            value = value << 6 | digit
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8((value >> bits) & 0xFF))
            }
            value &= (1 << bits) - 1
        }
        return out
    }
}
