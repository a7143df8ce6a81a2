/// A compiled ink story (inklecate's JSON, ink version 21) generated for the `ink` scenario, the same on
/// every run: a chain of `knots` knots, each `linesPerKnot` lines long. A knot is what this ink compiles to:
///
///     VAR miles = 0
///     === k7 ===
///     Knot 7, line 1: the road goes on, and the lanterns sway in the wind. # k7
///     Knot 7, line 2: ...                                   (up to linesPerKnot - 2 lines of text)
///     ~ miles = miles + 1
///     {&The lanterns sway.|The wind rises.|The road bends.}
///     You have walked {miles} miles.
///     * [Look around] -> k8
///     + [Walk on] -> k8
///
/// The last knot leads back to the first, so a reader can go on for ever (the once-only choice is gone on
/// the second visit of a knot, the sticky one stays).
enum GeneratedInkStory {
    static func json(knots: Int, linesPerKnot: Int) -> String {
        precondition(knots >= 1 && linesPerKnot >= 3)
        let knotJSON = (0..<knots).map { i in "\"k\(i)\":\(knot(i, next: (i + 1) % knots, textLines: linesPerKnot - 2))" }
        let globals = "\"global decl\":[\"ev\",0,{\"VAR=\":\"miles\"},\"/ev\",\"end\",null]"
        return "{\"inkVersion\":21,\"root\":[[{\"->\":\"k0\"},[\"done\",{\"#n\":\"g-0\"}],null],\"done\",{"
            + (knotJSON + [globals]).joined(separator: ",") + "}],\"listDefs\":{}}"
    }

    private static func knot(_ i: Int, next: Int, textLines: Int) -> String {
        var items: [String] = []
        for line in 1...textLines {
            items.append(quoted("^Knot \(i), line \(line): the road goes on, and the lanterns sway in the wind."))
            if line == 1 { items += ["\"#\"", quoted("^k\(i)"), "\"/#\""] }
            items.append("\"\\n\"")
        }
        // ~ miles = miles + 1
        items += ["\"ev\"", "{\"VAR?\":\"miles\"}", "1", "\"+\"", "{\"VAR=\":\"miles\",\"re\":true}", "\"/ev\""]
        items += [cycle(["The lanterns sway.", "The wind rises.", "The road bends."]), "\"\\n\""]
        items += [quoted("^You have walked "), "\"ev\"", "{\"VAR?\":\"miles\"}", "\"out\"", "\"/ev\"", quoted("^ miles."), "\"\\n\""]
        // * [Look around] -> next (once-only, choice-only text: flags 16 + 4), + [Walk on] -> next (sticky: 4)
        items += ["\"ev\"", "\"str\"", quoted("^Look around"), "\"/str\"", "\"/ev\"", "{\"*\":\".^.c-0\",\"flg\":20}"]
        items += ["\"ev\"", "\"str\"", quoted("^Walk on"), "\"/str\"", "\"/ev\"", "{\"*\":\".^.c-1\",\"flg\":4}"]
        let target = "[{\"->\":\"k\(next)\"},{\"#f\":5}]"
        items.append("{\"c-0\":\(target),\"c-1\":\(target),\"#f\":1}")
        return "[" + items.joined(separator: ",") + "]"
    }

    /// `{&a|b|c}`: a cycle, as inklecate compiles it (the visit count modulo the branches picks one; every
    /// branch then jumps to the `nop` after the tests).
    private static func cycle(_ branches: [String]) -> String {
        var items = ["\"ev\"", "\"visit\"", "\(branches.count)", "\"%\"", "\"/ev\""]
        for k in branches.indices {
            items += ["\"ev\"", "\"du\"", "\(k)", "\"==\"", "\"/ev\"", "{\"->\":\".^.s\(k)\",\"c\":true}"]
        }
        let nop = items.count
        items.append("\"nop\"")
        let named = branches.enumerated().map { k, text in "\"s\(k)\":[\"pop\",\(quoted("^" + text)),{\"->\":\".^.^.\(nop)\"},null]" }
        items.append("{" + named.joined(separator: ",") + ",\"#f\":5}")
        return "[" + items.joined(separator: ",") + "]"
    }

    /// The texts here hold no quote, backslash or control character.
    private static func quoted(_ text: String) -> String { "\"" + text + "\"" }
}
