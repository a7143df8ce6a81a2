import Foundation
import PajamaCoReading
import PajamaModel
import PajamaStorage
import PajamaReader
import PajamaTerminal
import PajamaTestSupport
import Testing

/// One run of the reader's wiring (`ReaderApp.runStory` or `runLibrary`, what `pajama read` and `pajama`
/// run) on a `HeadlessTerminal`, in this process: keys pushed, frames read as text, the messages it would
/// print on standard error collected, and its exit code once it returns. Its files are under `home`, as
/// `pajama` with `Paths.environment(home:)` keeps them, so a second run there resumes what the first saved.
@MainActor
final class HeadlessReading {
    let terminal: HeadlessTerminal
    let paths: Paths
    private let messages = Locked<[String]>([])
    private var run: Task<Int32, Never>?

    /// How long a wait for a frame may take before the test fails (real time: the reader's loads run on
    /// real tasks; a busy 2-core machine, not a slow reader, is why it is this long).
    static let timeout = Duration.seconds(30)

    private init(home: TemporaryDirectory, width: Int, height: Int, files: SavedFiles = .disk) {
        terminal = HeadlessTerminal(width: width, height: height, colors: 256)  // as tmux's xterm-256color
        var paths = Paths(home: home.url)
        paths.files = files
        self.paths = paths
    }

    /// `pajama read ARGUMENT` with `options` (no sound unless asked) in a `width` x `height` terminal;
    /// what it saves goes to `files` (the disk under `home`, or a test's `MemoryFiles`).
    static func read(
        _ argument: String, home: TemporaryDirectory, width: Int = 80, height: Int = 24, start: (beat: String, page: String?)? = nil,
        restart: Bool = false, bookmark: String? = nil, transcript: String? = nil, watch: Bool = false,
        options: ReaderOptions = ReaderOptions(noSound: true), files: SavedFiles = .disk
    ) -> HeadlessReading {
        let reading = HeadlessReading(home: home, width: width, height: height, files: files)
        reading.start { terminal, paths in
            await ReaderApp.runStory(argument, start: start, restart: restart, bookmark: bookmark, transcript: transcript, watch: watch,
                                     options: options, paths: paths, display: .headless(terminal))
        }
        return reading
    }

    /// `pajama join URL` with `token` (and `fingerprint` for a self-signed https:// host).
    static func join(
        _ url: String, token: String, home: TemporaryDirectory, name: String = "ann", fingerprint: String? = nil, width: Int = 80,
        height: Int = 24, options: ReaderOptions = ReaderOptions(noSound: true)
    ) -> HeadlessReading {
        let reading = HeadlessReading(home: home, width: width, height: height)
        reading.start { terminal, paths in
            await ReaderApp.runFollower(URL(string: url)!, token: token, name: name, fingerprint: fingerprint, options: options, paths: paths,
                                        display: .headless(terminal))
        }
        return reading
    }

    /// `pajama host ARGUMENT --token TOKEN --name NAME` on a free port of 127.0.0.1 (`joinURL()` says which).
    static func host(
        _ argument: String, token: String, home: TemporaryDirectory, name: String = "Olive", width: Int = 80, height: Int = 24,
        options: ReaderOptions = ReaderOptions(noSound: true)
    ) -> HeadlessReading {
        let reading = HeadlessReading(home: home, width: width, height: height)
        reading.start { terminal, paths in
            await ReaderApp.runHost(argument, configuration: .init(port: 0, ownerName: name), token: token, options: options, paths: paths,
                                    display: .headless(terminal))
        }
        return reading
    }

    /// `pajama FOLDER`: the library of the stories in `folder`.
    static func library(
        _ folder: String, home: TemporaryDirectory, width: Int = 80, height: Int = 24, options: ReaderOptions = ReaderOptions(noSound: true)
    ) -> HeadlessReading {
        let reading = HeadlessReading(home: home, width: width, height: height)
        reading.start { terminal, paths in
            await ReaderApp.runLibrary(library: StoryFolder.resolve(folder, paths: paths), options: options, paths: paths, display: .headless(terminal))
        }
        return reading
    }

    private func start(_ body: @escaping @MainActor (HeadlessTerminal, Paths) async -> Int32) {
        let (terminal, paths, messages) = (terminal, paths, messages)
        run = Task { @MainActor in
            await ReaderMessages.$collector.withValue({ line in messages.withLock { $0.append(line) } }) {
                await body(terminal, paths)
            }
        }
    }

    /// What the reader said on (what would be) standard error so far, one message a line.
    var stderr: String { messages.withLock { $0.joined(separator: "\n") } }

    /// Waits until the reader has said a message containing `text`; returns every message. Fails the test
    /// (naming them) if it does not come.
    @discardableResult
    func waitForMessage(_ text: String) async throws -> String {
        guard await eventually(timeout: Self.timeout, { self.stderr.contains(text) }) else {
            throw Timeout(description: "no message \"\(text)\" after \(Self.timeout); the messages:\n\(stderr)\nthe frame:\n\(screen)")
        }
        return stderr
    }

    /// A host's join URL, from the join command it says once it listens (`PAJAMA_TOKEN=T pajama join URL`).
    func joinURL() async throws -> String {
        let said = try await waitForMessage("pajama join ")
        let command = said.split(separator: "\n").first { $0.contains("pajama join ") } ?? ""
        return String(command.components(separatedBy: "pajama join ").last?.split(separator: " ").first ?? "")
    }

    /// The frame now, as text.
    var screen: String { terminal.text }

    /// Where `word` first is on the frame now (its column and row) and its cells; nil when it is not there.
    func cells(of word: String) -> (x: Int, y: Int, cells: [CellGrid.Cell])? {
        guard let grid = terminal.lastFrame else { return nil }
        let wanted = word.map(String.init)
        for y in 0..<grid.height {
            let row = (0..<grid.width).map { grid[$0, y] }
            for x in 0...max(0, grid.width - wanted.count) where x + wanted.count <= grid.width {
                if wanted.indices.allSatisfy({ row[x + $0].text == wanted[$0] }) { return (x, y, Array(row[x..<(x + wanted.count)])) }
            }
        }
        return nil
    }

    /// The colour numbers (foreground, background; -1: the terminal's own) this terminal's depth draws `word`'s
    /// first cell in, as the screen gives them to ncurses (`Theme.colorNumbers`); nil when it is not on the frame.
    func colours(at word: String) -> (fg: Int, bg: Int)? {
        cells(of: word).map { terminal.theme.colorNumbers(of: $0.cells[0].style, colors: terminal.colors) }
    }

    /// Every colour number (foreground and background) of the frame's cells now.
    var colourNumbers: Set<Int> {
        Set((terminal.lastFrame?.cells ?? []).flatMap { cell -> [Int] in
            let (fg, bg) = terminal.theme.colorNumbers(of: cell.style, colors: terminal.colors)
            return [fg, bg]
        })
    }

    /// Waits until the frame contains `text`; returns the frame. Fails the test (naming the frame) if it does not come.
    @discardableResult
    func waitFor(_ text: String) async throws -> String {
        try await waitUntil("\"\(text)\"") { $0.contains(text) }
    }

    /// Waits until the frame satisfies `condition`; returns the frame. Fails the test (naming `what` and the frame) if it does not.
    @discardableResult
    func waitUntil(_ what: String, _ condition: (String) -> Bool) async throws -> String {
        guard await terminal.waitForFrame(timeout: Self.timeout, condition) else {
            throw Timeout(description: "no frame with \(what) after \(Self.timeout); the frame:\n\(screen)\nmessages:\n\(stderr)")
        }
        return screen
    }

    /// Presses `keys` (in order) and waits for a frame containing `text`.
    @discardableResult
    func press(_ keys: Key..., thenWaitFor text: String) async throws -> String {
        for key in keys { terminal.push(key) }
        return try await waitFor(text)
    }

    /// Types `text` (each character a key) and waits for a frame containing `wanted`.
    @discardableResult
    func type(_ text: String, thenWaitFor wanted: String) async throws -> String {
        terminal.type(text)
        return try await waitFor(wanted)
    }

    /// Waits until the progress saved for `storyId` satisfies `condition` (it is written behind the reader);
    /// returns it. Fails the test (naming the last one read) if it does not come.
    @discardableResult
    func waitForProgress(_ storyId: String, _ condition: (ReadingProgress) -> Bool) async throws -> ReadingProgress {
        let store = paths.progressStore
        var last: ReadingProgress?
        let held = await eventually(timeout: Self.timeout) {
            last = store.load(storyId: storyId).progress
            return last.map(condition) ?? false
        }
        guard held, let last else { throw Timeout(description: "no such progress for \(storyId) after \(Self.timeout); last read: \(String(describing: last))") }
        return last
    }

    /// The exit code `pajama` would exit with, once the reading has ended (its progress is saved by then).
    func exitCode() async -> Int32 {
        await run?.value ?? -1
    }

    /// Presses `q` and returns the exit code.
    func quit() async -> Int32 {
        terminal.type("q")
        return await exitCode()
    }

    struct Timeout: Error, CustomStringConvertible {
        var description: String
    }
}
