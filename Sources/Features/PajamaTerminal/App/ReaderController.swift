import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaLoading
import PajamaModel
import PajamaReading
import PajamaStorage
import PajamaImage
import PajamaStoryFormat

/// Wires one reading session, on the main actor (ncurses is not thread-safe). Everything that happens (keys,
/// resizes, ticks, the view model's snapshots, loading progress, pictures, the sound server, co-reading) is one
/// event stream; each turn of the loop hands the events to `ReaderPresenter` (every decision), has the effects
/// it returns run (`ReaderEffectRunner`, whose tasks answer with events) and draws at most one frame.
@MainActor
public final class ReaderController {
    /// How often the `--stats` panel is refreshed.
    static let statsInterval: Duration = .milliseconds(250)

    /// How a session ended.
    public enum Outcome: Sendable { case quit, signal(Int32) }

    private let viewModel: ReaderViewModel
    private let terminal: any ReaderTerminal
    private let sound: SoundClient?
    private let statsProvider: (@MainActor () async -> [String])?
    private let pictureCache: PictureCache
    private let loadingEvents: AsyncStream<LoadingEvent>?
    private var presenter: ReaderPresenter
    private let inbox: ReaderInbox
    private let effects: ReaderEffectRunner
    private var finished = false
    /// The session's tasks (the streams it listens to, the stats panel, the start), cancelled when it ends.
    private var sessionTasks: [Task<Void, Never>] = []
    /// The grid of the frame before last, to compose the next frame into (two take turns).
    private var spareGrid: CellGrid?
    /// The frames each key brought (logged at the end: `pajama-bench key-to-glass` reads it).
    public private(set) var frames = FrameTally()

    public init(
        viewModel: ReaderViewModel, content: any StoryContent, screen: any ReaderTerminal, sound: SoundClient?,
        storyTitle: String, themes: [String], paths: Paths, statsProvider: (@MainActor () async -> [String])? = nil,
        pictureCache: PictureCache = PictureCache(), loadingEvents: AsyncStream<LoadingEvent>? = nil, role: ReaderRole = .solo,
        readAloud: ReadAloud? = nil, timedText: Bool = true, statusPages: (any StatusPageSource)? = nil, statusPageTitle: String? = nil
    ) {
        (self.viewModel, terminal, self.sound, self.statsProvider) = (viewModel, screen, sound, statsProvider)
        (self.pictureCache, self.loadingEvents) = (pictureCache, loadingEvents)
        presenter = ReaderPresenter(
            storyTitle: storyTitle, width: screen.width, height: screen.height, themes: themes, themeName: screen.theme.name,
            look: screen.pictureLook, sound: .disabled, role: role, showsPosition: statsProvider != nil,
            readAloud: readAloud.map { $0.isOn ? .on : .off } ?? .missing(soundOn: sound != nil), timedText: timedText,
            statusPageTitle: statusPages == nil ? nil : statusPageTitle)
        viewModel.revealsWholePages = !timedText
        presenter.captions = ReaderSettings.load(from: paths.readerSettings, files: paths.files).captions ?? false
        inbox = ReaderInbox { [weak screen] in screen?.wake() }
        effects = ReaderEffectRunner(viewModel: viewModel, content: content, terminal: screen, sound: sound, pictureCache: pictureCache,
                                     paths: paths, readAloud: readAloud, inbox: inbox, statusPages: statusPages)
    }

    /// The co-reading role changed (followers came or went).
    public func setRole(_ role: ReaderRole) { post(.role(role)) }
    /// The owner of the followed session ended it: this reader reads on solo.
    public func sessionEnded() { post(.sessionEnded) }
    /// Something to tell the reader once (co-reading: the connection to the host lost, back).
    public func notice(_ text: String) { post(.notice(text)) }
    /// The co-readers' votes on the owner's page changed (a session that takes votes).
    public func showVotes(_ votes: ChoiceVotes) { post(.votes(votes)) }
    /// Where this follower's votes go (a session that takes votes).
    public var onVote: (@MainActor (StoryLocation, Int) -> Void)? {
        get { effects.voted }
        set { effects.voted = newValue }
    }
    /// What validating the story found (`--watch`), a line per problem; an empty list hides the overlay.
    public func showProblems(_ lines: [String]) { post(.problems(lines)) }

    /// The story's files changed (`--watch`) and the content dropped what changed: renders of changed pictures
    /// go, and the page shown is entered again (in turn with the keys). nil: anything may have changed.
    public func storyChanged(title: String, beats: Set<String>?, assets: Set<AssetPath>?) async {
        await pictureCache.forget(assets)
        post(.storyChanged(title: title, assets: assets))
        post(.reloadStory(beats: beats))
    }

    /// Reads until the reader quits, a quit signal arrives or the terminal goes away. Never polls: it sleeps
    /// until a key, a signal, an event or the presenter's deadline wakes it.
    public func run(start: StoryLocation?, restart: Bool, bookmark: Bookmark? = nil) async -> Outcome {
        sessionTasks = [
            forward(viewModel.events()) {  // subscribed before the view model starts
                switch $0 {
                case .stateChanged(let state): .state(state)
                case .notice(let text): .notice(text)
                default: nil
                }
            },
            forward(sound?.stateChanges()) { [effects] _ in .sound(effects.soundStatus) },
            forward(loadingEvents) { .loading($0) },
            Task { @MainActor [weak self, statsProvider] in
                while let statsProvider, !Task.isCancelled {
                    self?.post(.stats(await statsProvider()))
                    try? await Task.sleep(for: Self.statsInterval)
                }
            },
            Task { @MainActor [viewModel] in await viewModel.start(at: start, restart: restart, bookmark: bookmark) },
        ]
        defer {
            effects.cancelAll()
            sessionTasks.forEach { $0.cancel() }
            PajamaLog.reader.info("the session drew \(frames.summary)")
        }
        post(.sound(effects.soundStatus))
        while !finished {
            if let sig = terminal.quitSignal { return .signal(sig) }
            drain()
            while !finished, let key = terminal.readKey() {
                if case .resize = key {
                    terminal.invalidate()
                    handle(.resize(width: terminal.width, height: terminal.height))
                } else if case .picturesChanged = key {
                    handle(.pictureLook(terminal.pictureLook))
                } else {
                    frames.key()
                    handle(.key(key))
                }
            }
            handle(.tick)  // the loading grace period's end; auto-forward's move
            drain()
            if presenter.needsRedraw, !finished {
                perform(presenter.frameEffects())  // cells already rendered come back before the frame is composed
                drain()
                var grid = spareGrid ?? CellGrid(width: 0, height: 0)
                spareGrid = nil  // held once, so composing into it does not copy it
                perform(presenter.render(into: &grid))
                spareGrid = terminal.draw(grid)
                frames.frame()
            }
            // Quitting ends the loop here, without a wait for input first (that wait was `q` and Esc's second).
            guard !finished else { break }
            let timeout = presenter.deadline.map { $0 - .now } ?? .seconds(1)
            if inbox.isEmpty { await terminal.waitForInput(timeout: max(min(timeout, .seconds(1)), .milliseconds(1))) }
        }
        return .quit
    }

    private func post(_ event: ReaderPresenter.Event) { inbox.post(event) }

    private func drain() {
        while !finished, let event = inbox.take() { handle(event) }
    }

    private func handle(_ event: ReaderPresenter.Event) { perform(presenter.handle(event, at: .now)) }

    private func perform(_ effects: [ReaderEffect]) {
        if effects.contains(.quit) { finished = true }
        self.effects.perform(effects)
    }

    /// A session task posting what `stream` brings, as `event` turns it.
    private func forward<Element: Sendable>(
        _ stream: AsyncStream<Element>?, _ event: @escaping @MainActor (Element) -> ReaderPresenter.Event?
    ) -> Task<Void, Never> {
        Task { @MainActor [weak self] in
            guard let stream else { return }
            for await element in stream { if let event = event(element) { self?.post(event) } }
        }
    }
}
