import FoundationEssentials
import Glibc
import PajamaBasics

/// `pajama frob`: a word that is neither a command nor an existing folder is a mistyped command, not a
/// library folder (the library is the default command, so without this check it opened an empty one).
enum UnknownCommand {
    /// Options of the default command that take a value (`--theme night`), and argument-parser's
    /// `--generate-completion-script bash`: their values are not commands.
    static let optionsWithValues: Set<String> = ["--theme", "--generate-completion-script"]

    /// The error for `arguments` (without the program name), or nil when they name a command, a folder
    /// (or other existing path), a path with a `/`, or no word at all.
    static func problem(in arguments: [String], commands: [String]) -> String? {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" { return nil }
            if optionsWithValues.contains(argument) {
                index += 2
                continue
            }
            if argument.hasPrefix("-") {
                index += 1
                continue
            }
            if commands.contains(argument) || argument == "help" || argument.contains("/") || FileManager.default.fileExists(atPath: argument) {
                return nil
            }
            let message = "unknown command '\(argument)' (and there is no folder of that name)"
            if let suggestion = closest(to: argument, in: commands) { return message + ": did you mean '\(suggestion)'?" }
            return message + "; the commands are \(commands.joined(separator: ", "))"
        }
        return nil
    }

    /// The command nearest to `word` by edit distance, when it is near enough to be a typo: at most
    /// two edits, and fewer than half the word's letters.
    static func closest(to word: String, in commands: [String]) -> String? {
        let scored = commands.map { ($0, editDistance(word.lowercased(), $0)) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= 2, best.1 * 2 < max(word.count, best.0.count) else { return nil }
        return best.0
    }

    /// Edit distance with adjacent transpositions (optimal string alignment): "raed" is one edit from "read".
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[a.count][b.count]
    }
}
