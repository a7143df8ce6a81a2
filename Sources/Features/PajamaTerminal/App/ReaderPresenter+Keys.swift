import PajamaModel
import PajamaStorage

extension ReaderPresenter {
    /// A key (or a click): what it changes here and what the controller must do.
    mutating func handle(_ key: Key, at now: Instant) -> [ReaderEffect] {
        if case .resize = key {
            needsRedraw = true
            return []
        }
        // A key that only starts a move draws nothing of its own: the frame comes with the new page (one
        // frame a key). Anything else it changes on screen is drawn at once.
        let before = (notice, mode, selectedChoice, scroll, autoForward, wasDirty: needsRedraw)
        let effects = respond(to: key, at: now)
        let unchanged = before.0 == notice && before.1 == mode && before.2 == selectedChoice && before.3 == scroll && before.4 == autoForward
        needsRedraw = unchanged && effects.contains(where: \.isWork) ? before.wasDirty : true
        return effects
    }

    /// A key on a question page (docs/reader.md, "Typed answers"): typing, the editing keys, Enter to answer
    /// (a refused answer says why), Esc to give the next key to the reader's own commands. nil: the key is a
    /// command (after Esc, or a key that is neither typing nor editing: ↑ ↓ PgUp PgDn, F-keys).
    private mutating func answerKey(_ key: Key, _ question: Question, at location: StoryLocation) -> [ReaderEffect]? {
        if answerField.location != location { answerField = AnswerField(location: location) }
        if answerField.commandNext {
            answerField.commandNext = false
            return nil
        }
        switch key {
        case .escape:
            answerField.commandNext = true
            notice = "the next key is a command (q quit, b back, ? help)"
            return []
        case .enter:
            let typed = String(answerField.field.text)
            if let problem = question.problem(with: typed) {
                notice = problem
                return []
            }
            return navigate(.move(.answer(typed)))
        default:
            var field = answerField.field
            guard field.edit(key) else { return nil }
            answerField.field = field
            return []
        }
    }

    /// What `key` changes here and what the controller must do.
    private mutating func respond(to key: Key, at now: Instant) -> [ReaderEffect] {
        notice = nil
        // A number being typed goes on with the next key only if that is a digit (ReaderPresenter+Numbers.swift).
        let typed = typedNumber
        typedNumber = nil
        if autoForward != .off, mode == .reading {
            // Any key stops auto-forward (and does nothing else), but `a`, `[`, `]` and quitting.
            let action = KeyMap.action(for: key, onChoicePage: !(pageState?.page.choices.isEmpty ?? true))
            switch action {
            case .autoForward, .slower, .faster, .timedText, .quit: break
            default: return autoForwardKey(action, at: now)
            }
        }
        if case .help(let scroll) = mode {
            // ↑ ↓ PgUp PgDn (k j) scroll the help where it does not fit; any other key closes it.
            guard let step = scrollStep(for: key) else {
                mode = .reading
                return []
            }
            mode = .help(scroll: max(0, min(PageRenderer.helpLines.count + 8, scroll + step)))
            return []
        }
        switch mode {
        case .status(let overlay):
            statusKey(key, overlay)
            return []
        case .backlog, .bookmarks: return handleList(key)
        case .nameBookmark(let field): return handleName(key, field)
        case .problems(var list):
            // ↑ ↓ PgUp PgDn scroll the problems; Esc hides them; any other key hides them and does what it does.
            if list.move(key) {
                mode = .problems(list)
                return []
            }
            mode = .reading
            if key == .escape { return [] }
        default: break
        }
        if mode == .reading, let page = pageState, case .question(let question) = page.page.kind {
            if let effects = answerKey(key, question, at: page.location) { return effects }
        }
        let choices = pageState?.page.choices ?? []
        if case .click(let x, let y) = key {
            guard let index = choiceBoxes.first(where: { $0.contains(x: x, y: y) })?.index else { return [] }
            return take(index)
        }
        guard let action = KeyMap.action(for: key, onChoicePage: !choices.isEmpty) else { return [] }
        if mode == .confirmRestart {
            mode = .reading
            if case .confirm(true) = action { return navigate(.restart) }
            return []
        }
        if case .failed = reader {
            switch action {
            case .restart, .retry:
                retries += 1  // said when it fails again (ReaderPresenter.handle(state:))
                return [.retry]  // the same place again: a follower may retry too
            case .skip: return navigate(.skip)
            case .back: return navigate(.move(.back))
            case .quit: return [.quit]
            case .backlog: return [.openBacklog]
            default: return []
            }
        }
        switch action {
        case .advance:
            if case .finished = reader { return [] }
            if scrollTowardTheEnd() { return [] }
            return navigate(.move(.advance))
        case .back: return navigate(.move(.back))
        case .digit(let digit):
            return typeDigit(digit, after: typed, choices: choices, at: now)
        case .selectPrevious, .selectNext:
            guard !choices.isEmpty, mayVote || mayNavigate() else { return [] }
            let step = action == .selectNext ? 1 : choices.count - 1
            selectedChoice = (selectedChoice + step) % choices.count
            keepsSelectionInView = true
            scroll = PageRenderer.scroll(showingChoice: selectedChoice, for: model(), width: width, height: height, from: scroll)
        case .takeSelected:
            return selectedChoice < choices.count ? take(selectedChoice) : []
        case .restart:
            if mayNavigate() { mode = .confirmRestart }
        case .mute, .volumeUp, .volumeDown:
            if let why = sound.offNotice {
                notice = why
                return []
            }
            switch action {
            case .mute: return [.toggleMute]
            case .volumeUp: return [.setVolume(min(100, (sound.volume / 10 + 1) * 10))]
            default: return [.setVolume(max(0, (sound.volume + 9) / 10 * 10 - 10))]
            }
        case .nextTheme:
            guard !themes.isEmpty else { return [] }
            let index = ((themes.firstIndex(of: themeName) ?? -1) + 1) % themes.count
            return [.applyTheme(themes[index])]
        case .help: mode = .help(scroll: 0)
        case .readAloud: return toggleReadAloud()
        case .repeatLine: return repeatLine()
        case .captions: return toggleCaptions()
        case .skipSeen: return pageState?.page.choices.isEmpty == false ? [] : navigate(.move(.skipSeen))
        case .autoForward, .slower, .faster: return autoForwardKey(action, at: now)
        case .timedText:
            timedText.toggle()
            if !timedText { autoForward = .off }
            notice = timedText ? "timed text on: lines as the story reveals them · a auto-forward"
                : "no timed text: each page whole, no auto-forward (w: back on)"
            return [.setTimedText(timedText)]
        case .backlog: return [.openBacklog]
        case .bookmarks: return [.openBookmarks]
        case .status: return openStatus()
        case .quit: return [.quit]
        case .scrollUp: scrollText(by: -PageRenderer.pageStep(for: model(), width: width, height: height))
        case .scrollDown: scrollText(by: PageRenderer.pageStep(for: model(), width: width, height: height))
        case .scrollLineUp: scrollText(by: -1)
        case .scrollLineDown: scrollText(by: 1)
        case .skip:
            // `s` skips on an error screen (above); on a page it saves a bookmark.
            if case .page(let page) = reader {
                let words = Bookmark.firstWords(of: page.page)
                mode = .nameBookmark(NameField(hint: words.isEmpty ? "bookmark" : words, limit: Self.bookmarkNameLimit))
            }
        case .takeLeadingVote: return takeLeadingVote()
        case .retry, .confirm, .redraw: break
        }
        return []
    }

    /// `effect` if this reader turns its own pages; for a follower nothing (see `mayNavigate`).
    private mutating func navigate(_ effect: ReaderEffect) -> [ReaderEffect] {
        mayNavigate() ? [effect] : []
    }

    /// Takes choice `index` (if this reader turns its own pages), remembered for a return to the page; a
    /// follower of a session that takes votes votes for it instead.
    mutating func take(_ index: Int) -> [ReaderEffect] {
        if mayVote { return vote(for: index) }
        let effects = navigate(.move(.choose(index)))
        if !effects.isEmpty { takenChoice = index }
        return effects
    }

    /// Whether this reader turns its own pages; a follower is told whom it follows instead.
    mutating func mayNavigate() -> Bool {
        guard case .follower(let owner) = role else { return true }
        notice = "only \(owner) turns the pages"
        return false
    }

    /// A tap on a page with text below the fold scrolls it a screen on (as `more` does) rather than turn it:
    /// the page turns only once its end is on screen, so no line is ever skipped. True when it scrolled.
    mutating func scrollTowardTheEnd() -> Bool {
        guard case .page = reader, scroll < PageRenderer.maximumScroll(for: model(), width: width, height: height) else { return false }
        scrollText(by: PageRenderer.pageStep(for: model(), width: width, height: height))
        return true
    }

    /// Moves the page's text by `lines` (negative: up), within the page.
    mutating func scrollText(by lines: Int) {
        keepsSelectionInView = false
        let maximum = PageRenderer.maximumScroll(for: model(), width: width, height: height)
        scroll = max(0, min(maximum, min(scroll, maximum) + lines))
    }
}
