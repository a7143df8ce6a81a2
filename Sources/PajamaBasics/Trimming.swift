/// Trimming as Foundation's `trimmingCharacters(in:)` does it, without Foundation (whose internationalisation
/// brings ICU's 34 MB of data into the binary: docs/install.md).
extension StringProtocol {
    /// Without the spaces and tabs at either end (Foundation's `.whitespaces`: Unicode's space separators
    /// and U+0009); line breaks stay.
    public func trimmingSpaces() -> String { trimming(where: Character.isSpace) }

    /// Without the white space and line breaks at either end (Foundation's `.whitespacesAndNewlines`).
    public func trimmingWhitespace() -> String { trimming(where: \.isWhitespace) }

    /// Without the line breaks at either end (Foundation's `.newlines`).
    public func trimmingNewlines() -> String { trimming(where: \.isNewline) }

    /// Without the characters at either end for which `trimmed` holds.
    public func trimming(where trimmed: (Character) -> Bool) -> String {
        guard let first = firstIndex(where: { !trimmed($0) }), let last = lastIndex(where: { !trimmed($0) }) else { return "" }
        return String(self[first...last])
    }
}

extension Character {
    /// A space or a tab: every scalar a Unicode space separator (Zs) or U+0009, as Foundation's
    /// `CharacterSet.whitespaces` counts them.
    public static func isSpace(_ character: Character) -> Bool {
        character.unicodeScalars.allSatisfy { $0 == "\t" || $0.properties.generalCategory == .spaceSeparator }
    }
}
