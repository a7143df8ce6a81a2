import PajamaBasics
/// A Harlowe lambda (its manual, "Lambda data"): `_item where _item > 2`, `_item via _item * 2`,
/// `each _item`, `_item making _total via _total + _item`, and `where`/`via` with `it` for the value when
/// no temporary variable is named. Read from the source a `HarloweValue.lambda` keeps (so a lambda saved
/// in a variable is still a plain value).
struct HarloweLambda {
    /// The temporary variable each value is put in (without `_`), nil for `it` alone.
    var variable: String?
    /// `making _total`: the variable the running total is put in.
    var making: String?
    var condition: HarloweExpr?
    var via: HarloweExpr?

    /// The clause words, in the order Harlowe allows them.
    private static let keywords = ["each", "making", "where", "when", "via"]

    static func parse(_ source: String) -> Result<HarloweLambda, HarloweSyntaxError> {
        var lambda = HarloweLambda()
        for (keyword, text) in clauses(source) {
            let body = text.trimmingSpaces()
            switch keyword {
            case "", "each", "making":
                guard body.isEmpty || (body.hasPrefix("_") && body.dropFirst().allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }) else {
                    return .failure(HarloweSyntaxError(message: "a lambda names its variable as _name, not \"\(body)\""))
                }
                let name = body.isEmpty ? nil : String(body.dropFirst())
                if keyword == "making" { lambda.making = name } else if lambda.variable == nil { lambda.variable = name }
            default:
                var parser = HarloweExpressionParser(Array((body + ")").unicodeScalars), at: 0)
                switch parser.arguments() {
                case .success(let expressions) where expressions.count == 1:
                    if keyword == "via" { lambda.via = expressions[0] } else { lambda.condition = expressions[0] }
                case .success: return .failure(HarloweSyntaxError(message: "a lambda's \(keyword) takes one expression"))
                case .failure(let error): return .failure(error)
                }
            }
        }
        return .success(lambda)
    }

    /// The source cut at its clause words (outside strings and brackets): `("", "_a")`, `("where", "_a > 2")`.
    private static func clauses(_ source: String) -> [(String, String)] {
        var result: [(String, String)] = [("", "")]
        let characters = Array(source)
        var index = 0
        var depth = 0
        var quote: Character?
        while index < characters.count {
            let character = characters[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if "([{".contains(character) {
                depth += 1
            } else if ")]}".contains(character) {
                depth -= 1
            } else if depth == 0, index == 0 || characters[index - 1] == " " || characters[index - 1] == "\t" {
                if let keyword = keywords.first(where: { word in
                    let end = index + word.count
                    return end <= characters.count && String(characters[index..<end]).lowercased() == word
                        && (end == characters.count || characters[end] == " " || characters[end] == "\t")
                }) {
                    result.append((keyword, ""))
                    index += keyword.count
                    continue
                }
            }
            result[result.count - 1].1.append(character)
            index += 1
        }
        return result.filter { !($0.0.isEmpty && $0.1.trimmingSpaces().isEmpty) }
    }
}
