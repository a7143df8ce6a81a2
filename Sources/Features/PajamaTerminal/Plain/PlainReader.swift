import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaModel
import PajamaReading
import PajamaStorage
import PajamaStoryFormat

/// One reading session in plain mode, on the main actor: the view model's events and the lines typed go
/// to `PlainPresenter` (every decision), what it prints is written as it is, and the work it asks for is
/// run one at a time (each answers with an event). No screen control at all: the output is lines of text a
/// screen reader or braille display says as they come, a pipe or a file keeps.
@MainActor
public final class PlainReader {
    private enum State {
        case idle
        /// Reading: the tasks that feed the inbox, the view model's events and the lines typed (cancelled
        /// when the session ends).
        case reading(events: Task<Void, Never>, lines: Task<Void, Never>)
        case ended
    }

    private let viewModel: ReaderViewModel
    private let input: PlainInput
    private let write: @MainActor (String) -> Void
    private let readAloud: ReadAloud?
    /// The story, when it offers a status page (`i`).
    private let statusPages: (any StatusPageSource)?
    private let signals: QuitSignals?
    private var presenter: PlainPresenter
    private var state = State.idle
    private let inbox: AsyncStream<PlainPresenter.Event>
    private let post: AsyncStream<PlainPresenter.Event>.Continuation
    /// The work under way (a move, reading the bookmarks), at most one.
    private var work: Task<Void, Never>?

    /// `input`: the lines typed; `write`: prints text (flushed at once); `echoesInput`: print each line read
    /// after the prompt (for input that is not a terminal, which echoes it itself), so the output reads as
    /// the dialogue it was. `signals` end the session as `q` does.
    public init(
        viewModel: ReaderViewModel, input: PlainInput, write: @escaping @MainActor (String) -> Void, role: ReaderRole = .solo,
        readAloud: ReadAloud?, soundOn: Bool, signals: QuitSignals?, echoesInput: Bool, statusPages: (any StatusPageSource)? = nil
    ) {
        self.statusPages = statusPages
        (self.viewModel, self.input, self.write, self.readAloud, self.signals) = (viewModel, input, write, readAloud, signals)
        presenter = PlainPresenter(role: role, readAloud: readAloud.map { $0.isOn ? .on : .off } ?? .missing(soundOn: soundOn), echoes: echoesInput)
        (inbox, post) = AsyncStream<PlainPresenter.Event>.makeStream()
    }

    /// The co-reading role changed (followers came or went, the connection failed).
    public func setRole(_ role: ReaderRole) { post.yield(.role(role)) }
    /// The owner of the followed session ended it: this reader reads on solo.
    public func sessionEnded() { post.yield(.sessionEnded) }
    /// Something to tell the reader once.
    public func notice(_ text: String) { post.yield(.notice(text)) }
    /// The co-readers' votes on the owner's page changed (a session that takes votes).
    public func showVotes(_ votes: ChoiceVotes) { post.yield(.votes(votes)) }
    /// Where this follower's votes go (a session that takes votes).
    public var onVote: (@MainActor (StoryLocation, Int) -> Void)?

    /// Reads until the reader quits (`q`, the end of the input) or a quit signal arrives.
    public func run(start: StoryLocation?, restart: Bool, bookmark: Bookmark? = nil) async -> ReaderController.Outcome {
        guard case .idle = state else { return .quit }
        let events = viewModel.events()  // subscribed before the view model starts
        signals?.onSignal = { [post] in post.yield(.endOfInput) }
        let relay = Task { @MainActor [post] in
            for await event in events { post.yield(.reader(event)) }
        }
        state = .reading(
            events: relay,
            lines: Task { @MainActor [post, input] in
                while let line = await input.nextLine() { post.yield(.line(line)) }
                if !Task.isCancelled { post.yield(.endOfInput) }
            })
        defer { end() }
        write("Plain mode: type ? and Enter for the commands.\n")
        run(work: { [viewModel] in
            await viewModel.start(at: start, restart: restart, bookmark: bookmark)
            return .workFinished(viewModel.state)
        })
        if let signal = signals?.received { return .signal(signal) }
        for await event in inbox {
            let (text, effects) = presenter.handle(event)
            if !text.isEmpty { write(text) }
            for effect in effects { perform(effect) }
            if let signal = signals?.received {
                write("\n")  // after the prompt (and the terminal's ^C): the shell's next line starts on its own
                return .signal(signal)
            }
            if presenter.isQuitting { break }
            if let prompt = presenter.takePrompt() { write(prompt) }
        }
        await closeSaying(relay)
        return .quit
    }

    /// Closes the view model here, so what it still says is printed before the session ends: a bookmark
    /// saved just before `q` ("bookmarked NAME", or why it could not be), a problem writing the progress.
    private func closeSaying(_ relay: Task<Void, Never>) async {
        work?.cancel()
        await viewModel.close()
        await relay.value  // the view model's events end when it is closed
        post.finish()
        for await event in inbox {
            guard case .reader(.notice) = event else { continue }
            let (text, _) = presenter.handle(event)
            if !text.isEmpty { write(text) }
        }
    }

    private func perform(_ effect: PlainPresenter.Effect) {
        switch effect {
        case .move(let move): run { [viewModel] in await viewModel.changePage(move) }
        case .restart: run { [viewModel] in await viewModel.restart() }
        case .retry: run { [viewModel] in await viewModel.retry() }
        case .skip: run { [viewModel] in await viewModel.skip() }
        case .openBookmark(let bookmark): run { [viewModel] in await viewModel.open(bookmark) }
        case .listBookmarks:
            run(work: { [viewModel] in
                let list = await viewModel.bookmarks()
                return .bookmarks(list, viewModel.state)
            })
        case .showStatus(let beatId):
            run(work: { [viewModel, statusPages] in .status(await statusPages?.statusPage(at: beatId), viewModel.state) })
        case .saveBookmark(let name): viewModel.saveBookmark(name: name)
        case .setReadAloud(let on): readAloud?.isOn = on
        case .vote(let location, let choice): onVote?(location, choice)
        case .quit: break
        }
    }

    /// Runs a move on the view model as the work under way; it answers `.workFinished` with the state reached.
    private func run(_ move: @escaping @MainActor () async -> Void) {
        run(work: { [viewModel] in
            await move()
            return .workFinished(viewModel.state)
        })
    }

    private func run(work body: @escaping @MainActor () async -> PlainPresenter.Event) {
        work = Task { @MainActor [post] in post.yield(await body()) }
    }

    /// Ends the session's tasks (the view model is closed by its owner).
    private func end() {
        if case .reading(let events, let lines) = state {
            events.cancel()
            lines.cancel()
        }
        work?.cancel()
        signals?.onSignal = nil
        post.finish()
        state = .ended
    }
}
