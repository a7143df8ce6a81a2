import PajamaAudio
import PajamaLoading
import PajamaModel
import PajamaStorage

/// What one reading holds open: its story source, the content manager that loads it, the sound engine, and
/// whatever the reading added (a folder watcher, a co-reading host...). `close()` lets them go once, in the
/// reverse order they were added and then the content and the sound, however the reading ends: the run
/// functions open one with `ReaderApp.withReading` and return, and the session is closed behind them.
@MainActor
final class ReadingSession {
    let source: any StorySource
    let sound: PulseSoundEngine?
    let content: StoryContentManager

    private enum State {
        case open(closers: [() async -> Void])
        case closed
    }

    private var state = State.open(closers: [])

    init(source: any StorySource, sound: PulseSoundEngine?, content: StoryContentManager) {
        self.source = source
        self.sound = sound
        self.content = content
    }

    /// `body` runs when the session closes, before what was added earlier and before the content and sound.
    func onClose(_ body: @escaping () async -> Void) {
        guard case .open(let closers) = state else { return }
        state = .open(closers: closers + [body])
    }

    /// Lets everything go; later calls do nothing.
    func close() async {
        guard case .open(let closers) = state else { return }
        state = .closed
        for body in closers.reversed() { await body() }
        await content.close()
        await content.clearSounds()
        if let sound { await sound.shutdown() }
    }
}

extension ReaderApp {
    /// Opens the story `argument` names (`openStory`: on failure it says why and this returns 2), runs `body`
    /// with the reading's session and closes the session whatever `body` returns.
    static func withReading(_ argument: String, options: ReaderOptions, paths: Paths, _ body: (ReadingSession) async -> Int32) async -> Int32 {
        guard let (source, sound, content) = await openStory(argument, options: options, paths: paths) else { return 2 }
        let session = ReadingSession(source: source, sound: sound, content: content)
        let code = await body(session)
        await session.close()
        return code
    }
}
