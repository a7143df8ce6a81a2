import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaModel

extension StoryTestReport {
    /// The summary `pajama test` prints: what was run, the endings, the coverage with what was never
    /// reached, and every problem with its replay line.
    public var summary: String {
        var out: [String] = []
        if let exhaustive {
            out.append("\(title): every state from the start, \(exhaustive.states) state\(exhaustive.states == 1 ? "" : "s")"
                       + (exhaustive.complete ? " (all it can reach)" : " (stopped at --max-states: not all it can reach)"))
        } else {
            out.append("\(title): \(runs) random run\(runs == 1 ? "" : "s") (seed \(seed))")
        }
        if endings.isEmpty {
            out.append("  endings: none reached")
        } else {
            let shown = endings.prefix(12).map { "\"\(StoryFormatError.printable($0.id))\" (\($0.count))" }.joined(separator: ", ")
            out.append("  endings: \(endings.count) reached: \(shown)\(endings.count > 12 ? ", …" : "")")
        }
        for part in coverage {
            if part.total == 0 {
                out.append("  \(part.kind): the story has none")
                continue
            }
            guard let total = part.total, let percent = part.percent else {
                out.append("  \(part.kind): \(part.reached) reached")
                continue
            }
            var line = "  \(part.kind): \(part.reached) of \(total) reached (\(cFormat("%.1f", percent))%)"
            if !part.unreached.isEmpty {
                let names = part.unreached.prefix(10).map { StoryFormatError.printable($0) }.joined(separator: ", ")
                line += "; never reached: \(names)\(part.unreached.count > 10 ? ", and \(part.unreached.count - 10) more" : "")"
            }
            out.append(line)
        }
        if let neverOffered, !neverOffered.isEmpty {
            out.append("  never offered: \(neverOffered.count) choice\(neverOffered.count == 1 ? "" : "s")")
            for choice in neverOffered.prefix(10) {
                out.append("    \"\(StoryFormatError.printable(choice.choice))\" (\(StoryFormatError.printable(choice.part))): \(StoryFormatError.printable(choice.reason))")
            }
            if neverOffered.count > 10 { out.append("    and \(neverOffered.count - 10) more (--json lists them all)") }
        }
        if problems.isEmpty {
            out.append(endings.isEmpty ? "  problems: no run reached an ending" : "  problems: none")
        } else {
            out.append("  problems: \(problems.count)")
            for problem in problems {
                let place = "beat \"\(StoryFormatError.printable(problem.beatId))\"" + (problem.pageId.map { ", page \"\(StoryFormatError.printable($0))\"" } ?? "")
                out.append("    \(problem.kind.rawValue): \(place): \(problem.message)")
                out.append("      \(problem.replay)")
            }
        }
        return out.joined(separator: "\n") + "\n"
    }
}
