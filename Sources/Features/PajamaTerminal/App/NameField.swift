import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaModel

/// A one-line text field (the bookmark's name): the text typed, the cursor in it, and the hint taken
/// when it is left empty. The usual line-editing keys: ← → move, Backspace takes back the character before
/// the cursor, Ctrl-U the text before it, Ctrl-W the word before it, Ctrl-A / Ctrl-E the start and the end.
public struct NameField: Sendable, Equatable {
    public private(set) var text: [Character] = []
    /// Where the next character goes, 0...text.count.
    public private(set) var cursor = 0
    /// What an empty field stands for (shown greyed, taken on Enter).
    public let hint: String
    public let limit: Int

    public init(hint: String, limit: Int) {
        self.hint = hint
        self.limit = limit
    }

    /// The name: what was typed (trimmed), else the hint.
    public var value: String {
        let typed = String(text).trimmingSpaces
        return typed.isEmpty ? hint : typed
    }

    /// Applies an editing key; false when `key` is not one (Enter, Esc: the caller's).
    public mutating func edit(_ key: Key) -> Bool {
        switch key {
        case .left: cursor = max(0, cursor - 1)
        case .right: cursor = min(text.count, cursor + 1)
        case .backspace:
            guard cursor > 0 else { return true }
            text.remove(at: cursor - 1)
            cursor -= 1
        case .character("\u{01}"): cursor = 0  // Ctrl-A
        case .character("\u{05}"): cursor = text.count  // Ctrl-E
        case .character("\u{15}"):  // Ctrl-U
            text.removeSubrange(0..<cursor)
            cursor = 0
        case .character("\u{17}"):  // Ctrl-W: the spaces before the cursor, then the word before them
            var start = cursor
            while start > 0, text[start - 1] == " " { start -= 1 }
            while start > 0, text[start - 1] != " " { start -= 1 }
            text.removeSubrange(start..<cursor)
            cursor = start
        case .character(let c) where !c.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }):
            guard text.count < limit else { return true }
            text.insert(c, at: cursor)
            cursor += 1
        default:
            return false
        }
        return true
    }

    /// The field as a line: the text with a cursor mark (`▏`) in it, or the hint after the cursor when empty.
    public var shown: (text: String, isHint: Bool) {
        if text.isEmpty { return ("▏" + hint, true) }
        return (String(text[..<cursor]) + "▏" + String(text[cursor...]), false)
    }
}

/// The answer typed on a question page (`Question`): a one-line field, the page it belongs to, and whether
/// the next key is a command (after Esc) rather than typing.
public struct AnswerField: Sendable, Equatable {
    public var field = NameField(hint: "", limit: Question.maximumAnswerBytes)
    public var location: StoryLocation?
    public var commandNext = false

    public init(location: StoryLocation? = nil) {
        self.location = location
    }
}
