/// Trimming without Foundation's `CharacterSet` (which FoundationEssentials does not have): the product's
/// modules are on FoundationEssentials so the binary carries no ICU (docs/install.md, "Size").
extension StringProtocol {
    /// Without the spaces and tabs at either end (Foundation's `.whitespaces`: Unicode's white space but
    /// line ends).
    public var trimmingSpaces: String { trimming { $0.isWhitespace && !$0.isNewline } }

    /// Without the white space, line ends included, at either end (Foundation's `.whitespacesAndNewlines`).
    public var trimmingWhitespace: String { trimming(\.isWhitespace) }

    /// Without the line ends at either end (Foundation's `.newlines`).
    public var trimmingNewlines: String { trimming(\.isNewline) }

    /// Without the characters at either end for which `drop` is true.
    public func trimming(_ drop: (Character) -> Bool) -> String {
        guard let first = firstIndex(where: { !drop($0) }), let last = lastIndex(where: { !drop($0) }) else { return "" }
        return String(self[first...last])
    }
}
