import PajamaModel

/// A reading written down as plain UTF-8 text: each page's text as it is revealed, each choice taken and
/// the end. Fed the reader's events in order (`record`), it returns the text to append; the text of the
/// story is made safe to print (`UntrustedText`), so a transcript shown with `cat` cannot drive a terminal.
///
/// A page is written when it is entered (on a text page, the lines revealed so far) and each line as it is
/// revealed; pages are separated by a blank line. A page entered again (a back move) is written again: the
/// transcript is the reading as it happened.
public struct Transcript: Sendable {
    /// The page last written and how many of its lines.
    private var current: (beatId: String, pageId: String, lines: Int)?
    private var wroteAnything = false
    /// "The End" is written for the end screen now shown: its figures may come again (the endings counted
    /// later, on the same visit), its page and its end are written once.
    private var wroteTheEnd = false

    public init() {}

    /// The text `event` adds to the transcript (empty when it adds nothing).
    public mutating func record(_ event: NavigatorEvent) -> String {
        switch event {
        case .stateChanged(.page(let page)):
            wroteTheEnd = false
            return write(page)
        case .stateChanged(.finished(let page, _)):
            // A story the runtime stopped has no ending: its last page says why, and "The End" would lie.
            let end = page.beat.origin?.stopped == nil && !wroteTheEnd ? "\nThe End\n" : ""
            wroteTheEnd = true
            return write(page) + end
        case .choiceTaken(let choice):
            if let answer = choice.answer { return "> typed: \(Self.clean(answer))\n" }
            return "> \(choice.index + 1). \(Self.clean(choice.text))\n"
        default:
            return ""
        }
    }

    private mutating func write(_ state: PageState) -> String {
        let (isNewPage, lines) = newLines(of: state)
        let separator = isNewPage && wroteAnything ? "\n" : ""
        if isNewPage { wroteAnything = true }
        return separator + lines.map { $0 + "\n" }.joined()
    }

    /// What `state` shows that was not shown before: all its lines when it is another page than the last
    /// one seen, else the lines revealed since. (Also what read aloud says.)
    public mutating func newLines(of state: PageState) -> (isNewPage: Bool, lines: [String]) {
        let lines = Self.lines(of: state.page, revealed: state.revealedLines)
        if let current, current.beatId == state.beat.id, current.pageId == state.page.id {
            guard lines.count > current.lines else { return (false, []) }
            self.current = (current.beatId, current.pageId, lines.count)
            return (false, Array(lines[current.lines...]))
        }
        current = (state.beat.id, state.page.id, lines.count)
        return (true, lines)
    }

    /// The lines a page shows with `revealed` of its text lines revealed.
    static func lines(of page: Page, revealed: Int) -> [String] {
        switch page.kind {
        case .title(let title, let subtitle):
            return [clean(title)] + (subtitle.map { [clean($0)] } ?? [])
        case .text(let lines):
            return lines.prefix(max(0, revealed)).map(clean)
        case .choice(let prompt, let choices):
            return (prompt.map { [clean($0)] } ?? []) + choices.enumerated().map { "  \($0.offset + 1). \(clean($0.element.text))" }
        case .question(let question):
            return (question.label.map { [clean($0)] } ?? []) + ["  (\(question.hint))"]
        }
    }

    /// One line of story text made safe to print (a control character, a line break included, is shown as
    /// U+FFFD, as on the screen).
    static func clean(_ text: String) -> String { UntrustedText.sanitize(text) }
}
