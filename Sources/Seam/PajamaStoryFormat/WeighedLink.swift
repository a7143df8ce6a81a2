/// `pajama test`'s choices never offered, for a format whose choices are links written in its passages
/// (Twine's Harlowe and SugarCube): each link as the story weighed it when a passage was shown, offered, or
/// kept back by the condition it is under (its text then not shown), as a note the test run's tally keeps
/// (a set of strings, merged over every run and job). A link is known by its passage and its markup as
/// written (its text and its target), so a kept-back link and the same link offered in another run meet.
public enum WeighedLink {
    /// The note of a link of `passage`: shown (`keptBack` nil), or not shown and why (the condition it is
    /// under, in the format's words).
    public static func note(passage: String, text: String, target: String, keptBack reason: String?) -> String {
        guard let reason else { return "offered\t\(clean(passage))\t\(clean(text))\t\(clean(target))" }
        return "kept\t\(clean(passage))\t\(clean(text))\t\(clean(target))\t\(clean(reason))"
    }

    /// The links weighed (`offered` and `keptBack` notes) and offered in no run, by passage and then text,
    /// with every reason they were kept back for.
    public static func neverOffered(_ weighed: Set<String>) -> [NeverOfferedChoice] {
        var offered: Set<[Substring]> = []
        var kept: [[Substring]: Set<Substring>] = [:]
        for note in weighed {
            let fields = note.split(separator: "\t", omittingEmptySubsequences: false)
            switch (fields.first, fields.count) {
            case ("offered", 4): offered.insert(Array(fields[1...3]))
            case ("kept", 5): kept[Array(fields[1...3]), default: []].insert(fields[4])
            default: continue
            }
        }
        return kept.filter { !offered.contains($0.key) }
            .sorted { ($0.key[0], $0.key[1], $0.key[2]) < ($1.key[0], $1.key[1], $1.key[2]) }
            .map { key, reasons in
                let to = key[2] == key[1] ? "" : ", to \"\(key[2])\""
                return NeverOfferedChoice(choice: String(key[1]), part: "passage \"\(key[0])\"" + to, reason: reasons.sorted().joined(separator: "; "))
            }
    }

    /// A field without the tabs and line breaks that separate a note's fields.
    private static func clean(_ text: String) -> String {
        text.contains(where: { $0 == "\t" || $0 == "\n" || $0 == "\r" }) ? String(text.map { $0 == "\t" || $0 == "\n" || $0 == "\r" ? " " : $0 }) : text
    }
}
