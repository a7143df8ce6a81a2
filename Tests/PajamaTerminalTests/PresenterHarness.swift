import PajamaImage
import Testing

@testable import PajamaModel
@testable import PajamaReading
@testable import PajamaTerminal

/// Fake view-model states and a presenter driven on a virtual clock: time moves only when a test says.
@MainActor
struct PresenterHarness {
    var presenter: ReaderPresenter
    /// The virtual now: a fixed instant moved by `advance(by:)`.
    var now = ContinuousClock.now
    /// The effects of the last `render()`.
    var renderEffects: [ReaderEffect] = []

    init(width: Int = 80, height: Int = 24, sound: SoundStatus = .disabled, role: ReaderRole = .solo,
         themes: [String] = ["default", "paper", "night"], showsPosition: Bool = false, readAloud: ReadAloudSwitch = .missing(soundOn: false)) {
        presenter = ReaderPresenter(
            storyTitle: "Test Story", width: width, height: height, themes: themes, themeName: "default",
            look: PictureLook(mode: .none), sound: sound, role: role, showsPosition: showsPosition, readAloud: readAloud)
    }

    @discardableResult
    mutating func handle(_ event: ReaderPresenter.Event) -> [ReaderEffect] {
        presenter.handle(event, at: now)
    }

    /// Presses each key; work a key starts (a move...) is done at once, as if the view model had answered
    /// (`.workFinished`), so the next key is not queued behind it. Tests of the queue use `handle(.key(_:))`.
    @discardableResult
    mutating func press(_ keys: Key...) -> [ReaderEffect] {
        keys.flatMap { key in
            let effects = presenter.handle(.key(key), at: now)
            return effects.contains(where: \.isWork) ? effects + presenter.handle(.workFinished, at: now) : effects
        }
    }

    @discardableResult
    mutating func type(_ text: String) -> [ReaderEffect] {
        text.flatMap { press(.character($0)) }
    }

    /// The view model's state shown; returns the effects but the next-pages question (`.checkNextPages`,
    /// asked on every page: its own tests look at it with `handle(.state(_:))`).
    @discardableResult
    mutating func show(_ state: ReaderState) -> [ReaderEffect] {
        handle(.state(state)).filter { if case .checkNextPages = $0 { false } else { true } }
    }

    /// Moves the virtual clock and ticks, as the controller's loop does when it wakes.
    mutating func advance(by duration: Duration) {
        now += duration
        handle(.tick)
    }

    /// The frame as the terminal would show it now (and the render's effects kept in `renderEffects`).
    mutating func frame() -> RenderedFrame {
        let (frame, effects) = presenter.render()
        renderEffects = effects
        return frame
    }

    mutating func text() -> String { frame().grid.text() }

    /// The frame's last row: the status line.
    mutating func statusLine() -> String { String(text().split(separator: "\n", omittingEmptySubsequences: false).last(where: { !$0.isEmpty }) ?? "") }

    /// The row (0-based) and column of the first line of the frame containing `needle`.
    mutating func position(of needle: String) -> (x: Int, y: Int)? {
        let lines = text().split(separator: "\n", omittingEmptySubsequences: false)
        guard let y = lines.firstIndex(where: { $0.contains(needle) }), let range = lines[y].range(of: needle) else { return nil }
        return (lines[y].distance(from: lines[y].startIndex, to: range.lowerBound), y)
    }
}

/// Story pieces built directly, as the view model would hand them over.
enum Fixture {
    static let textBeat = Beat(id: "intro", pages: [
        Page(id: "one", kind: .text(lines: ["The lamp was lit.", "Wind at the door.", "A knock."])),
        Page(id: "two", kind: .text(lines: ["Morning came."])),
    ], nextBeatId: "fork")
    static let choiceBeat = Beat(id: "fork", pages: [
        Page(id: "ask", kind: .choice(prompt: "Which way?", choices: [
            Choice(text: "Left by the river", targetBeatId: "left"),
            Choice(text: "Right up the hill", targetBeatId: "right"),
            Choice(text: "Back to bed", targetBeatId: "bed"),
        ])),
    ])

    static func page(_ beat: Beat, _ index: Int = 0, revealed: Int = 1, ending: Bool = false,
                     standing: ReadingStanding = ReadingStanding()) -> PageState {
        let page = beat.pages[index]
        return PageState(beat: beat, page: page, location: StoryLocation(beatId: beat.id, pageId: page.id, lineIndex: revealed - 1),
                         pageIndex: index, revealedLines: revealed, canGoBack: true, isEnding: ending, standing: standing)
    }

    static var textPage: ReaderState { .page(page(textBeat, revealed: 3)) }
    static var choicePage: ReaderState { .page(page(choiceBeat)) }
    static var finished: ReaderState {
        .finished(page(textBeat, 1, ending: true), EndSummary(pagesRead: 7, choicesMade: 2, endingsFound: 1, endingsTotal: 3))
    }
    static var failed: ReaderState {
        .failed(ReaderFailure(error: AssetLoadError(.notFound, subject: "beats/left.json"),
                              location: StoryLocation(beatId: "left", pageId: ""), canSkip: false, canGoBack: true))
    }

    /// A text page of `count` one-word lines ("line 1" ...), all revealed.
    static func longPage(lines count: Int) -> ReaderState {
        let beat = Beat(id: "long", pages: [Page(id: "p", kind: .text(lines: (1...count).map { "line \($0)" }))])
        return .page(page(beat, revealed: count))
    }

    static func path(_ raw: String) -> AssetPath { try! AssetPath(validating: raw) }
}
