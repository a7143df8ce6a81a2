import PajamaBasics
import PajamaChoiceScript
import PajamaStoryFormat

/// A ChoiceScript game's stats screen as the reader's status page (`StatusPage`, key `i`): what
/// `choicescript_stats.txt` printed, its `*stat_chart` rows as meters, as text without ChoiceScript's markup.
enum ChoiceScriptStatus {
    /// ChoiceScript's button says "Show Stats".
    static let title = "Stats"

    /// The page of what the stats scene printed to its stop: its paragraphs, charts, and the options of a
    /// choice it stops at (not taken here) or why it stopped.
    static func page(_ moment: CSMoment) -> StatusPage {
        var rows: [StatusPage.Row] = []
        var afterParagraph = false
        func gap() { if !rows.isEmpty, rows.last != .text("") { rows.append(.text("")) } }
        for item in moment.output {
            switch item {
            case .paragraph(let text):
                let lines = plain(text)
                guard !lines.isEmpty else { continue }
                gap()
                rows += lines.map { .text($0) }
                afterParagraph = true
            case .statChart(let chart):
                if afterParagraph { gap() }
                rows += chart.map(row)
                afterParagraph = false
            case .achievement(let title, let description):
                gap()
                rows.append(.text("Achievement: \(title) \(plain(description).joined(separator: " "))"))
            case .notice(let text):
                gap()
                rows.append(.text(text))
            case .pageBreak:
                gap()
            case .image, .sound:
                continue
            }
        }
        switch moment.stop {
        case .ending, .input: break
        case .choice(let options):
            gap()
            rows += options.map { .text("• " + plain($0.text).joined(separator: " ")) }
        case .error(let message):
            gap()
            rows.append(.text("The stats screen stopped: \(message)"))
        }
        return StatusPage(title: title, rows: rows)
    }

    /// A chart row as ChoiceScript's chart shows it: "Label: value" (an empty line for an empty label and
    /// value), "Label: value%" on a bar, "Label: value%" and "Opposite: (100 - value)%" on one bar.
    static func row(_ row: CSStatRow) -> StatusPage.Row {
        func percent(_ value: CSValue) -> Double { (Double(value.text.trimmingSpaces) ?? 0) / 100 }
        switch row {
        case .text(let label, let value):
            let label = plain(label).joined(separator: " ")
            return label.trimmingSpaces.isEmpty && value.text.trimmingSpaces.isEmpty ? .text("") : .text("\(label): \(value.text)")
        case .percent(let label, let value):
            return .meter("\(plain(label).joined(separator: " ")): \(value.text)%", fraction: percent(value))
        case .opposedPair(let label, let opposite, let value):
            let other = CSValue.number(100 - percent(value) * 100).text
            return .opposed("\(plain(label).joined(separator: " ")): \(value.text)%", "\(plain(opposite).joined(separator: " ")): \(other)%",
                            fraction: percent(value))
        }
    }

    /// ChoiceScript's markup left out (`[b]`, `[i]`, `[c/]`, a link's words kept), a line at each `[n/]`;
    /// spaces run together as a browser shows them.
    static func plain(_ text: String) -> [String] {
        var result = text
        for tag in ["[b]", "[/b]", "[i]", "[/i]", "[c/]", "[/url]"] { result = result.replacing(tag, with: "") }
        while let open = result.firstRange(of: "[url="), let close = result[open.upperBound...].firstIndex(of: "]") {
            result.replaceSubrange(open.lowerBound...close, with: "")
        }
        return result.split(separator: "[n/]", omittingEmptySubsequences: false).map {
            $0.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
        }.filter { !$0.isEmpty }
    }
}
