import PajamaInk
import PajamaStoryFormat

/// `pajama test`'s choices never offered, for ink: every choice the runtime weighed at its choice point in
/// some run (`WeighedChoice`), but offered in none, with why it was kept back each time.
enum InkNeverOffered {
    /// A weighed choice as the test run's tally keeps it (a set of strings, merged over every run and job).
    static func note(_ choice: WeighedChoice) -> String {
        "\(choice.outcome.rawValue)\t\(choice.path)\t\(choice.text)"
    }

    /// The choices weighed (`note`s) and never offered, in the story's order of paths: by their text (the
    /// first in order, when it changed between runs), the knot or stitch they are in, and the reason.
    static func choices(weighed: Set<String>) -> [NeverOfferedChoice] {
        var seen: [String: (texts: Set<String>, outcomes: Set<WeighedChoice.Outcome>)] = [:]
        for note in weighed {
            let fields = note.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3, let outcome = WeighedChoice.Outcome(rawValue: String(fields[0])) else { continue }
            seen[String(fields[1]), default: ([], [])].texts.insert(String(fields[2]))
            seen[String(fields[1]), default: ([], [])].outcomes.insert(outcome)
        }
        var found: [NeverOfferedChoice] = []
        for (path, weighed) in seen.sorted(by: { $0.key < $1.key }) where !weighed.outcomes.contains(.offered) {
            let reason = switch (weighed.outcomes.contains(.conditionFalse), weighed.outcomes.contains(.alreadyTaken)) {
            case (true, false): "its condition was never true"
            case (false, true): "it is a once-only choice (*), already taken each time it came up"
            default: "its condition was never true, or it had already been taken (a once-only choice)"
            }
            let text = weighed.texts.min() ?? ""
            let part = InkParts.parts(ofPath: path).last.map { "\($0), at \(path)" } ?? path
            found.append(NeverOfferedChoice(choice: text.isEmpty ? "(a choice without text)" : text, part: part, reason: reason))
        }
        return found
    }
}
