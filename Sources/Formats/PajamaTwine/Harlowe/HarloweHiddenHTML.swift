/// HTML a passage hides (`<div style="display:none">`, `<span hidden>`): a browser lays it out but never shows
/// it, so Harlowe's reader sees none of its text and can click none of its links. Pajama runs what is inside
/// (its `(set:)`s still set) and shows and offers nothing of it.
enum HarloweHiddenHTML {
    /// The name of the element `tag` opens when it hides it (`div` for `<div style="display: none">`), else nil.
    static func hiddenElement(_ tag: String) -> String? {
        let lower = tag.lowercased()
        guard lower.hasPrefix("<"), !lower.hasPrefix("</"), !lower.hasSuffix("/>") else { return nil }
        let name = String(lower.dropFirst().prefix { $0.isLetter || $0.isNumber || $0 == "-" })
        guard !name.isEmpty, !voidElements.contains(name) else { return nil }
        if HarloweFlattener.hasAttribute("hidden", in: lower) { return name }
        guard let style = HarloweFlattener.attribute("style", in: lower) else { return nil }
        let declarations = style.split(separator: ";").map { $0.filter { !$0.isWhitespace } }
        return declarations.contains { $0 == "display:none" || $0.hasPrefix("display:none!") } ? name : nil
    }

    /// Elements without content or an end tag: hiding one hides nothing after it.
    static let voidElements: Set<String> = ["br", "img", "hr", "input", "meta", "link", "source", "wbr", "area", "base", "col", "embed", "track"]

    /// The position of the tag in `nodes` that ends the element `name` opened at `start` (nested elements of the
    /// same name followed), or `nodes.count` when it is not in the same hook (a browser ends it with its parent).
    static func end(of name: String, in nodes: [HarloweNode], after start: Int) -> Int {
        var depth = 1
        for index in (start + 1)..<nodes.count {
            guard case .html(let tag) = nodes[index] else { continue }
            let lower = tag.lowercased()
            let closes = lower.hasPrefix("</")
            let tagName = String(lower.drop { $0 == "<" || $0 == "/" }.prefix { $0.isLetter || $0.isNumber || $0 == "-" })
            guard tagName == name, !lower.hasSuffix("/>") else { continue }
            depth += closes ? -1 : 1
            if depth == 0 { return index }
        }
        return nodes.count
    }
}
