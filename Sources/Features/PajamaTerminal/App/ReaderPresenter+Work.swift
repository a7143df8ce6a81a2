import PajamaModel
import PajamaReading

/// The work on the view model (a move, the backlog, a reload): one at a time, and what comes meanwhile
/// waits behind it, in order. Two keys never wait: quit quits at once, and back calls off a move stuck on
/// a load (a slow link, a server that never answers) and then goes back from where it left.
enum ReaderWork: Sendable {
    case idle
    /// Work under way; the events that wait for it to finish (keys, reloads), in order.
    case running(behind: [ReaderPresenter.Event])
}

/// Whether read aloud (`v`) can be used, and whether it is on.
public enum ReadAloudSwitch: Sendable, Equatable {
    case on, off
    /// Not in this session: why, as the reader is told when it presses `v`.
    case unavailable(String)

    /// Read aloud missing: without sound, or without espeak-ng.
    public static func missing(soundOn: Bool) -> ReadAloudSwitch {
        .unavailable(soundOn ? "read aloud is not available (see pajama doctor)" : "read aloud needs sound (started with --no-sound?)")
    }
}

extension ReaderPresenter {
    /// A key as it arrives: handled now, or queued behind the work under way (but quit and back-out-of-a-wait).
    mutating func arrive(_ key: Key, at now: Instant) -> [ReaderEffect] {
        guard case .running(var behind) = work else { return started(handle(key, at: now)) }
        if quitsAtOnce(key) { return [.quit] }
        behind.append(.key(key))
        work = .running(behind: behind)
        return backsOutOfAWait(key) ? [.cancelWork] : []
    }

    /// The work under way finished: what waited behind it is handled, until something starts work again.
    mutating func workFinished(at now: Instant) -> [ReaderEffect] {
        guard case .running(var behind) = work else { return [] }
        work = .idle
        var effects: [ReaderEffect] = []
        while case .idle = work, !behind.isEmpty {
            effects += handle(behind.removeFirst(), at: now)
        }
        if case .running(let more) = work { work = .running(behind: more + behind) }
        return effects
    }

    /// `effects`, noting when they start work (what comes next waits for `.workFinished`).
    mutating func started(_ effects: [ReaderEffect]) -> [ReaderEffect] {
        if effects.contains(where: \.isWork) { work = .running(behind: []) }
        return effects
    }

    /// A reload of the story's files (`--watch`): now, or once the work under way is done.
    mutating func reloadStory(beats: Set<String>?) -> [ReaderEffect] {
        guard case .running(var behind) = work else { return started([.reload(beats: beats)]) }
        behind.append(.reloadStory(beats: beats))
        work = .running(behind: behind)
        return []
    }

    /// Whether `key` quits at once, even while earlier work is under way (a move waiting on a load): a quit
    /// key with no overlay open.
    func quitsAtOnce(_ key: Key) -> Bool {
        mode == .reading && KeyMap.action(for: key, onChoicePage: false) == .quit
    }

    /// Whether `key` is back while the reader waits for a page to load: the move that waits is called off
    /// instead of back queueing behind it.
    func backsOutOfAWait(_ key: Key) -> Bool {
        guard mode == .reading, case .loading = reader else { return false }
        return KeyMap.action(for: key, onChoicePage: false) == .back
    }

    /// `v`: read aloud on or off, or why it cannot be.
    mutating func toggleReadAloud() -> [ReaderEffect] {
        switch readAloud {
        case .unavailable(let why):
            notice = why
            return []
        case .on, .off:
            let on = readAloud == .off
            readAloud = on ? .on : .off
            notice = "read aloud: \(on ? "on" : "off")"
            // Turned on, it says the page on screen from its start (as a self-voicing reader announces what is shown).
            guard on, let text = pageSpeech else { return [.setReadAloud(on)] }
            return [.setReadAloud(on), .speak(text)]
        }
    }

    /// `V`: the current line said again (the line last revealed, the title, or the selected choice), read
    /// aloud on or off; without read aloud, why not.
    mutating func repeatLine() -> [ReaderEffect] {
        if case .unavailable(let why) = readAloud {
            notice = why
            return []
        }
        guard let page = pageState else { return [] }
        switch page.page.kind {
        case .title(let title, _): return [.speak(UntrustedText.sanitize(title))]
        case .text(let lines):
            let index = min(lines.count, max(1, page.revealedLines)) - 1
            return lines.indices.contains(index) ? [.speak(UntrustedText.sanitize(lines[index]))] : []
        case .choice(_, let choices):
            guard choices.indices.contains(selectedChoice) else { return [] }
            return [.speak("\(selectedChoice + 1). " + UntrustedText.sanitize(choices[selectedChoice].text))]
        case .question(let question):
            return [.speak(UntrustedText.sanitize(question.label ?? question.hint))]
        }
    }

    /// What the page on screen says, as read aloud says a page when it is entered.
    private var pageSpeech: String? {
        guard let page = pageState else { return nil }
        var transcript = Transcript()
        let lines = transcript.newLines(of: page).lines
        return lines.isEmpty ? nil : lines.joined(separator: "\n")
    }
}
