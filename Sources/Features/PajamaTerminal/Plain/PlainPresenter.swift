import PajamaModel
import PajamaReading
import PajamaStorage
import PajamaBasics
import PajamaStoryFormat

/// Every decision of plain mode (`pajama read --plain`), with no I/O: what the reader's events and typed
/// lines print, and what must be done (`Effect`). Lines of story text are printed as they are revealed,
/// pictures as their description, choices as a numbered list; then a prompt asks for a line.
///
/// Work on the view model (a move, reading the bookmarks) goes one at a time; lines typed meanwhile wait
/// behind it, in order, and the prompt is printed only when the work is done and every change of the
/// reader it brought has been printed (so a script's lines and a screen reader's announcements keep in
/// step with the story). `q` and the end of the input quit at once.
public struct PlainPresenter: Sendable {
    /// What happens, in the order it happened.
    public enum Event: Sendable {
        /// The view model's events (`ReaderViewModel.events()`).
        case reader(NavigatorEvent)
        /// A line the reader typed (without its line break).
        case line(String)
        /// The input ended (Ctrl-D, the end of a piped script): quit, as `q` does.
        case endOfInput
        /// The work asked for is done; `state` is the view model's state then (printed once its events are).
        case workFinished(ReaderState)
        /// The bookmarks asked for (`Effect.listBookmarks`); the work is done.
        case bookmarks([Bookmark], ReaderState)
        /// The story's status page asked for (`Effect.showStatus`; nil: none there); the work is done.
        case status(StatusPage?, ReaderState)
        /// Co-reading: the role changed, something to tell once, the owner ended the session.
        case role(ReaderRole)
        case notice(String)
        case sessionEnded
        /// The co-readers' votes on the owner's page (a session that takes votes; printed on `t`).
        case votes(ChoiceVotes)
    }

    /// What the shell must do; work (`isWork`) answers `.workFinished` (or `.bookmarks`).
    public enum Effect: Sendable, Equatable {
        case move(PageMove)
        case restart, retry, skip
        case listBookmarks
        /// The story's status page at beat `beatId`, answered by `.status`.
        case showStatus(beatId: String)
        case openBookmark(Bookmark)
        case saveBookmark(name: String)
        case setReadAloud(Bool)
        /// A follower's vote for a choice of the owner's page at this location.
        case vote(StoryLocation, Int)
        case quit

        public var isWork: Bool {
            switch self {
            case .move, .restart, .retry, .skip, .listBookmarks, .showStatus, .openBookmark: true
            case .saveBookmark, .setReadAloud, .vote, .quit: false
            }
        }
    }

    /// What a typed line answers.
    enum Question: Sendable, Equatable {
        /// A command (`PlainCommand`).
        case command
        /// "Start again from the beginning?"
        case confirmRestart
        /// The bookmark's name; Enter alone takes `suggested`.
        case bookmarkName(suggested: String)
        /// Which bookmark to open (a number; Enter alone: none).
        case pickBookmark([Bookmark])
    }

    /// Where the session is: waiting for a line (asking `Question`), or doing work with the lines typed
    /// meanwhile waiting behind it.
    enum State: Sendable {
        case asking(Question)
        /// Work under way (or done, its changes not all printed yet: `done` holds the state to reach); the
        /// lines typed meanwhile, in order (nil: the input ended there).
        case working(after: Question, done: ReaderState?, behind: [String?])
        case quitting
    }

    private(set) var state: State = .working(after: .command, done: nil, behind: [])
    /// What has been printed of the story (the page shown, the lines of it printed).
    private var transcript = Transcript()
    /// The reader's state as last printed.
    private(set) var shown: ReaderState = .starting
    private var role: ReaderRole
    /// The co-readers' votes, in a session that takes them (nil: it takes none).
    private var votes: ChoiceVotes?
    private var readAloud: ReadAloudSwitch
    /// Whether the prompt is the last thing printed (else it is printed again when a line is asked for).
    private var promptOnScreen = false
    /// Whether each line answered is printed after its prompt (input that is not a terminal, which would
    /// have echoed it): the output then reads as the dialogue it was.
    private let echoes: Bool

    /// The view model's start is the first work (the shell runs it and answers `.workFinished`).
    public init(role: ReaderRole = .solo, readAloud: ReadAloudSwitch, echoes: Bool = false) {
        self.role = role
        self.readAloud = readAloud
        self.echoes = echoes
    }

    /// Whether the session is over (`q`, the end of the input).
    public var isQuitting: Bool {
        if case .quitting = state { return true }
        return false
    }

    /// The prompt to print now, if one is due: when nothing is under way and something was printed since the last.
    public mutating func takePrompt() -> String? {
        guard case .asking(let question) = state, !promptOnScreen else { return nil }
        promptOnScreen = true
        return Self.prompt(question)
    }

    private static func prompt(_ question: Question) -> String {
        switch question {
        case .command: return "> "
        case .confirmRestart: return "Start again from the beginning? (y/n) "
        case .bookmarkName(let suggested): return "Bookmark name (Enter for \"\(suggested)\"): "
        case .pickBookmark(let list): return "Open which bookmark? (1-\(list.count), Enter for none) "
        }
    }

    /// What `event` prints, and what the shell must do.
    public mutating func handle(_ event: Event) -> (text: String, effects: [Effect]) {
        var out = Output()
        var effects: [Effect] = []
        switch event {
        case .reader(.stateChanged(let now)):
            out.add(show(now))
        case .reader(.notice(let text)), .notice(let text):
            out.line("(\(UntrustedText.sanitize(text)))")
        case .reader:
            break
        case .role(let newRole):
            role = newRole
            if role == .solo { votes = nil }
        case .votes(let new):
            votes = new.keepingMine(from: votes)
        case .sessionEnded:
            if case .follower(let owner) = role { out.line("(\(UntrustedText.sanitize(owner)) ended the session: you read on alone)") }
            role = .solo
            votes = nil
        case .workFinished(let reached):
            finishWork(reached: reached, then: nil)
        case .bookmarks(let list, let reached):
            if list.isEmpty {
                out.line("No bookmarks yet: s saves one.")
                finishWork(reached: reached, then: .command)
            } else {
                out.line("Bookmarks:")
                for (index, bookmark) in list.enumerated() {
                    out.line("  \(index + 1). \(UntrustedText.sanitize(bookmark.name)) (\(Bookmark.timeText(bookmark.savedAt)))")
                }
                finishWork(reached: reached, then: .pickBookmark(list))
            }
        case .status(let page, let reached):
            if let page {
                out.line("\(UntrustedText.sanitize(page.title)):")
                page.lines(barWidth: 0).forEach { out.line(UntrustedText.sanitize($0)) }
            } else {
                out.line("This story has no status page.")
            }
            finishWork(reached: reached, then: .command)
        case .endOfInput:
            if case .working(let after, let done, let behind) = state {
                state = .working(after: after, done: done, behind: behind + [nil])  // in turn, after the lines before it
            } else {
                state = .quitting
                effects = [.quit]
            }
        case .line(let line):
            switch state {
            case .quitting: break
            case .working(let after, let done, var behind):
                // In turn, as a script would have it (Ctrl-C quits at once).
                behind.append(line)
                state = .working(after: after, done: done, behind: behind)
            case .asking(let question):
                effects = answer(line, to: question, &out)
            }
        }
        effects += settleWork(&out)
        if !out.text.isEmpty { promptOnScreen = false }
        return (out.text, effects)
    }

    /// The work is done: the state it reached is printed when its events are (then the prompt).
    private mutating func finishWork(reached: ReaderState, then question: Question?) {
        guard case .working(let after, _, let behind) = state else { return }
        state = .working(after: question ?? after, done: reached, behind: behind)
    }

    /// Work done and everything it changed printed: back to asking, and the lines typed meanwhile answered
    /// in order (until one starts work again: the rest wait behind that).
    private mutating func settleWork(_ out: inout Output) -> [Effect] {
        guard case .working(let after, let done?, var behind) = state, done == shown else { return [] }
        state = .asking(after)
        var effects: [Effect] = []
        while !behind.isEmpty, case .asking(let question) = state {
            guard let line = behind.removeFirst() else {
                state = .quitting
                return effects + [.quit]
            }
            effects += answer(line, to: question, &out)
        }
        if case .working(let after, let done, let more) = state { state = .working(after: after, done: done, behind: more + behind) }
        return effects
    }

    /// Starts `effect` as work (waiting for its answer) when it is work.
    private mutating func start(_ effects: [Effect], asking question: Question) -> [Effect] {
        if effects.contains(where: \.isWork) {
            state = .working(after: question, done: nil, behind: [])
        } else {
            state = .asking(question)
        }
        return effects
    }

    // MARK: Answers

    private mutating func answer(_ line: String, to question: Question, _ out: inout Output) -> [Effect] {
        if echoes { out.add((promptOnScreen && out.text.isEmpty ? "" : Self.prompt(question)) + UntrustedText.sanitize(line) + "\n") }
        promptOnScreen = false
        switch question {
        case .command:
            if case .page(let shownPage) = shown, case .question(let asked) = shownPage.page.kind {
                // On a question page the line is the answer; a command starts with ":" (":q", ":b").
                if line.hasPrefix(":") { return command(PlainCommand(line: String(line.dropFirst())), &out) }
                if let problem = asked.problem(with: line) {
                    out.line(problem + " (" + asked.hint + "; :q quits, :? lists the commands)")
                    return start([], asking: .command)
                }
                return start(navigate(.move(.answer(line)), &out), asking: .command)
            }
            return command(PlainCommand(line: line), &out)
        case .confirmRestart:
            let yes = ["y", "yes"].contains(line.trimmingSpaces.lowercased())
            if !yes { out.line("Not restarted.") }
            return start(yes ? [.restart] : [], asking: .command)
        case .bookmarkName(let suggested):
            let typed = UntrustedText.sanitize(line).trimmingSpaces
            let name = typed.isEmpty ? suggested : String(typed.prefix(ReaderPresenter.bookmarkNameLimit))
            return start([.saveBookmark(name: name)], asking: .command)
        case .pickBookmark(let list):
            let text = line.trimmingSpaces
            if text.isEmpty { return start([], asking: .command) }
            guard let number = Int(text), (1...list.count).contains(number) else {
                out.line("Type a number from 1 to \(list.count), or Enter for none.")
                return start([], asking: .pickBookmark(list))
            }
            return start(navigate(.openBookmark(list[number - 1]), &out), asking: .command)
        }
    }

    private mutating func command(_ command: PlainCommand, _ out: inout Output) -> [Effect] {
        let choices = page?.page.choices ?? []
        switch command {
        case .quit:
            state = .quitting
            return [.quit]
        case .help:
            PlainCommand.helpLines.forEach { out.line($0) }
            if case .follower(let owner) = role {
                out.line("You follow \(UntrustedText.sanitize(owner)): the pages turn as they do; q, p, v and ? are yours.")
            }
        case .repeatPage:
            out.add(describe(shown))
        case .readAloud:
            switch readAloud {
            case .unavailable(let why): out.line("(\(why))")
            case .on, .off:
                let on = readAloud == .off
                readAloud = on ? .on : .off
                out.line("(read aloud: \(on ? "on" : "off"))")
                return start([.setReadAloud(on)], asking: .command)
            }
        case .next:
            switch shown {
            case .failed: out.line("The page could not be shown: r retry, b back, q quit.")
            case .finished: out.line("The end: r restart, b back, q quit.")
            case .page where !choices.isEmpty: out.line("Type the number of a choice, 1 to \(choices.count).")
            default: return start(navigate(.move(.advance), &out), asking: .command)
            }
        case .choose(let number):
            guard !choices.isEmpty else {
                out.line(number == 0 ? "No such choice." : "There is no choice here: Enter goes on.")
                break
            }
            guard (1...choices.count).contains(number) else {
                out.line("No choice \(number): type 1 to \(choices.count).")
                break
            }
            if let page, case .follower(let owner) = role, var here = votesHere {
                here.mine = number - 1
                votes = here
                out.line("(you voted for \(number): \(UntrustedText.sanitize(choices[number - 1].text)); \(UntrustedText.sanitize(owner)) chooses)")
                return start([.vote(page.location, number - 1)], asking: .command)
            }
            return start(navigate(.move(.choose(number - 1)), &out), asking: .command)
        case .votes:
            guard let here = votesHere else {
                out.line(votes == nil ? "This reading takes no votes (pajama host --votes)." : "No choices here to vote on.")
                break
            }
            for (index, choice) in choices.enumerated() {
                out.line("  \(index + 1). \(UntrustedText.sanitize(choice.text)): \(here.label(index) ?? "no votes")")
            }
        case .takeLeadingVote:
            guard case .host = role, let here = votesHere else {
                out.line("g takes the leading vote when hosting with --votes.")
                break
            }
            guard let leader = here.leader else {
                out.line("No votes on this page yet.")
                break
            }
            out.line("(the leading vote: \(leader + 1), \(here.label(leader) ?? ""))")
            return start([.move(.choose(leader))], asking: .command)
        case .back:
            return start(navigate(.move(.back), &out), asking: .command)
        case .skipSeen:
            guard choices.isEmpty else {
                out.line("Type the number of a choice, 1 to \(choices.count).")
                break
            }
            return start(navigate(.move(.skipSeen), &out), asking: .command)
        case .restart:
            if case .failed = shown { return start(navigate(.retry, &out), asking: .command) }
            guard mayNavigate(&out) else { break }
            return start([], asking: .confirmRestart)
        case .skip:
            guard case .failed(let failure) = shown, failure.canSkip else {
                out.line("Nothing to skip: k shows a page without a picture or sound that failed to load.")
                break
            }
            return start(navigate(.skip, &out), asking: .command)
        case .save:
            guard let page else {
                out.line("Only a page can be bookmarked.")
                break
            }
            let words = Bookmark.firstWords(of: page.page)
            let suggested = UntrustedText.sanitize(words.isEmpty ? "\(page.location.beatId) \(page.location.pageId)" : words)
            return start([], asking: .bookmarkName(suggested: suggested))
        case .bookmarks:
            return start([.listBookmarks], asking: .command)
        case .status:
            guard let page else {
                out.line("The status page is shown from a page of the story.")
                break
            }
            return start([.showStatus(beatId: page.location.beatId)], asking: .command)
        case .unknown(let text):
            out.line("Unknown command \"\(UntrustedText.sanitize(String(text.prefix(40))))\": ? lists the commands.")
        }
        return start([], asking: .command)
    }

    /// `effect` when this reader turns its own pages; a follower is told whom it follows instead.
    private func navigate(_ effect: Effect, _ out: inout Output) -> [Effect] {
        mayNavigate(&out) ? [effect] : []
    }

    private func mayNavigate(_ out: inout Output) -> Bool {
        guard case .follower(let owner) = role else { return true }
        out.line("(following \(UntrustedText.sanitize(owner)): the pages turn as they do)")
        return false
    }

    /// The votes on the page shown, when it is a choice page of a session that takes votes.
    private var votesHere: ChoiceVotes? { ChoiceVotes.on(page, votes) }

    /// The page shown (also the ending's page on the end screen), if any.
    private var page: PageState? {
        switch shown {
        case .page(let page): page
        default: nil
        }
    }

    // MARK: Printing the reader's state

    /// What the reader's new state `now` prints: what it shows that was not printed yet.
    private mutating func show(_ now: ReaderState) -> String {
        defer { shown = now }
        switch now {
        case .page(let page):
            return pageText(page, transcript.newLines(of: page))
        case .finished(let page, let summary):
            var text = pageText(page, transcript.newLines(of: page))
            if case .finished = shown { return text }
            // A story the runtime stopped has no ending: its last page says why, and "The End" would lie.
            if page.beat.origin?.stopped == nil { text += "\nThe End\n" }
            text += PageRenderer.endLines(summary).dropFirst().first.map { $0.replacing(" · ", with: ", ") + "\n" } ?? ""
            return text + "r restart, b back, q quit.\n"
        case .failed(let failure):
            if case .failed(let before) = shown, before == failure { return "" }
            return failureText(failure)
        case .starting, .loading:
            return ""
        }
    }

    /// All that `state` shows (`p`), or what `show` would print.
    private func describe(_ state: ReaderState) -> String {
        switch state {
        case .page(let page), .finished(let page, _):
            var fresh = Transcript()
            return pageText(page, fresh.newLines(of: page))
        case .failed(let failure): return failureText(failure)
        case .starting, .loading: return "(loading)\n"
        }
    }

    private func pageText(_ page: PageState, _ new: (isNewPage: Bool, lines: [String])) -> String {
        var lines = new.lines
        // Captions of the sounds that play now: the page's page_enter sounds as it opens, its tap sounds when
        // a tap shows more of it (docs/reader.md, "Captions"), whether or not sound is on.
        let captions = page.page.captions(new.isNewPage ? .pageEnter : .tap)
        if !lines.isEmpty || new.isNewPage {
            lines.insert(contentsOf: captions.map { "[sound: \(UntrustedText.sanitize($0))]" }, at: 0)
        }
        if new.isNewPage, let picture = page.page.pictureDescription {
            lines.insert("[picture: \(UntrustedText.sanitize(picture))]", at: 0)
        }
        guard !lines.isEmpty else { return "" }
        return (new.isNewPage ? "\n" : "") + lines.map { $0 + "\n" }.joined()
    }

    private func failureText(_ failure: ReaderFailure) -> String {
        var keys = ["r retry"]
        if failure.canSkip { keys.append("k show the page without it") }
        if failure.canGoBack { keys.append("b back") }
        keys.append("q quit")
        return "\nCannot show this page: \(UntrustedText.sanitize("\(failure.error)"))\n" + keys.joined(separator: ", ") + ".\n"
    }
}

/// Text built a line at a time.
private struct Output {
    var text = ""
    mutating func line(_ line: String) { text += line + "\n" }
    mutating func add(_ more: String) { text += more }
}
