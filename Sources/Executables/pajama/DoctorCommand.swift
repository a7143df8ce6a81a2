import ArgumentParser
import CChafa
import CNcursesw
import CPNG
import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaAudio
import PajamaCoReading
import PajamaModel
import PajamaStorage
import PajamaReader
import PajamaFormats
import PajamaStoryFormat
import PajamaTerminal

/// `pajama doctor`: what Pajama finds on this machine (terminal, sound server, libraries, folders),
/// with advice for whatever is missing. Exits 1 only when reading itself cannot work (no UTF-8 locale
/// at all); a terminal that cannot show the full screen (TERM=dumb) is a `terminal:` note (plain mode
/// reads there), no sound server, or one that cannot be heard, is a `sound:` note (reading works without
/// sound), and too few colours is a warning.
struct DoctorCommand: PathsCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor", abstract: "Check the terminal, the sound server, the libraries and the folders Pajama uses.")

    func run(paths: Paths) async throws {
        let locale = TerminalLocale.setUp()  // as the reader sets it
        var problems: [String] = []
        var warnings: [String] = []
        /// Why sound is off or cannot be heard (nil when it works); reading goes on without it.
        var soundOff: (summary: String, advice: String)?
        let environment = ProcessInfo.processInfo.environment

        print("terminal")
        let terminal = await MainActor.run { TerminalCapabilities.current(environment: environment) }
        let term = terminal.name
        print("  TERM: \(term.isEmpty ? "(not set)" : term)\(terminal.hasEntry || term.isEmpty ? "" : " (no terminfo entry)")")
        let colours: Int? = terminal.hasEntry ? terminal.colors : nil
        print("  colours: \(colours.map(String.init) ?? "unknown")")
        print("  cursor addressing: \(terminal.canMoveCursor ? "yes" : "no")")
        if terminal.canMoveCursor {
            print("  alternate screen: \(terminal.hasAlternateScreen ? "yes" : "no (the screen is cleared on exit)")")
        }
        // A terminal that cannot show the full screen still reads: in plain mode (the text, numbered choices).
        var plainOnly: String?
        if let problem = terminal.fullScreenProblem {
            plainOnly = problem
            print("  full screen: no; plain mode works here (the text and numbered choices, no pictures)")
        } else if let colours, colours < 8 {
            warnings.append("the terminal shows \(colours) colours: pictures fall back to plain characters (try TERM=xterm-256color)")
        }
        // Asked as a reading session asks (GraphicsProbe): what `--pictures auto` would draw with. The reader
        // takes replies that come after the probe's 100 ms as they come; so does the doctor, for a while.
        let graphics = GraphicsProbe.detect(.auto, environment: environment, patience: GraphicsProbe.doctorPatience) {
            print("  pictures: waiting for the terminal's answers (up to \(GraphicsProbe.doctorPatience.components.seconds) s more)")
            fflush(nil)  // the line is out before the wait
        }
        print("  pictures: \(graphics.reason)")
        if let background = graphics.background { print("  background: #\(cFormat("%06x", background)) (the terminal's answer to OSC 11)") }
        print("  size: \(Self.size().map { "\($0.columns)x\($0.rows)" } ?? "unknown (standard output is not a terminal)")")
        if let fallback = locale.fallback {
            print("  UTF-8: yes (the environment's locale is \(locale.environmentCodeset); Pajama draws with \(fallback))")
        } else {
            print("  UTF-8: \(locale.isUTF8 ? "yes" : "no") (locale codeset \(locale.codeset))")
        }
        if !locale.isUTF8 {
            problems.append("the locale is not UTF-8 (codeset \(locale.codeset)) and this system has no UTF-8 locale (C.UTF-8): "
                + "install one (Debian: the locales package) and set LANG to it so text and pictures draw")
        }

        print("sound")
        let engine = PulseSoundEngine.start(settingsFile: paths.soundSettings)
        if let report = engine.serverReport() {
            print("  server: \(report.serverName) \(report.serverVersion) at \(report.address)")
            print("  sample cache: \(report.sampleCache ? "yes" : "no")")
            print("  mode: \(report.mode.rawValue)\(engine.requestedMode == .auto ? "" : " (forced by \(SoundMode.environmentVariable))")")
            if report.defaultSink.isEmpty {
                print("  default sink: none")
                soundOff = ("no default sink", "the sound server has no default sink: nothing can be heard (check its configuration)")
            } else {
                print("  default sink: \(report.defaultSink) (\(report.sinkDescription)), \(report.sinkFormat)")
                print("  sink latency: \(Self.milliseconds(report.sinkLatencyMicroseconds)) (configured \(Self.milliseconds(report.sinkConfiguredLatencyMicroseconds)))")
            }
            if !report.sampleCache {
                warnings.append("the server has no sample cache: sounds play through Pajama's own low-latency stream")
            }
        } else {
            let reason: String
            if case .off(let why) = SoundClient.live(engine).state { reason = why } else { reason = "not connected" }
            print("  server: none (\(reason))")
            print("  sample cache: unknown")
            soundOff = ("no server", """
                \(reason.hasPrefix("no sound server") ? reason : "no sound server (\(reason))"): Pajama reads silently. Start one with `pulseaudio --start` \
                (or PipeWire's pipewire-pulse), or point PULSE_SERVER at a running server
                """)
        }
        await engine.shutdown()

        print("read aloud")
        switch SpeechSynthesizer.shared(voice: nil) {
        case .success(let synthesizer):
            print("  voice: \(synthesizer.voice) (espeak-ng \(SpeechSynthesizer.libraryVersion), \(synthesizer.sampleRate) Hz; --voice picks another)")
        case .failure(let problem):
            print("  voice: none (\(problem))")
            warnings.append("read aloud is not available: \(problem)")
        }

        print("libraries")
        print("  libsndfile: \(SoundDecoder.libraryVersion)")
        print("  libpulse: \(PulseSoundEngine.libraryVersion)")
        print("  libpng: \(String(cString: png_get_libpng_ver(nil)))")
        print("  libchafa: \(CHAFA_MAJOR_VERSION).\(CHAFA_MINOR_VERSION).\(CHAFA_MICRO_VERSION) (built against)")
        print("  ncurses: \(String(cString: curses_version()))")

        // `pajama relay` (a relay node for co-reading) runs Debian's nginx with the nchan module.
        print("relay")
        print("  nginx: \(RelayNode.nginx ?? "not installed (apt-get install nginx)")")
        print("  nchan: \(RelayNode.nchanModule ?? "not installed (apt-get install libnginx-mod-nchan)")")
        if RelayNode.nginx == nil || RelayNode.nchanModule == nil {
            warnings.append("`pajama relay` needs nginx and its nchan module (Debian: apt-get install nginx libnginx-mod-nchan); reading and `pajama host` work without them")
        }

        print("folders")
        print("  cache: \(paths.cache.path)")
        print("  progress: \(paths.progress.path)")
        print("  config: \(paths.config.path)")
        print("  log: \(paths.logFile.path)")

        // Where the library's stories and the themes come from (an installed pajama finds its own under
        // PREFIX/share/pajama, from the executable's path).
        let installation = Installation.current
        print("installation")
        print("  executable: \(installation.executable)")
        print("  bundled files: \(installation.origin)")
        print("stories")
        let library = StoryFolder.resolve(nil, paths: paths)
        for (folder, line) in zip(library.folders, library.describe(installation: installation)) {
            print("  \(line): \(Self.count(stories: folder.path, paths: paths))")
        }
        print("themes")
        for (folder, why) in Self.themeFolders(paths: paths, installation: installation, environment: environment) {
            let names = ThemeLibrary.names(in: [folder])
            let found = FileManager.default.fileExists(atPath: folder.path) ? (names.isEmpty ? "none" : names.joined(separator: ", ")) : "no such folder"
            print("  \(folder.path) (\(why)): \(found)")
        }

        for warning in warnings { print("warning: \(warning)") }
        if let soundOff { print("sound: \(soundOff.advice)") }
        if let plainOnly { print("terminal: Pajama reads here in plain mode; for the full-screen reader and pictures: \(plainOnly)") }
        for problem in problems { print("problem: \(problem)") }
        if !problems.isEmpty { throw ExitCode(1) }
        if plainOnly == nil, soundOff == nil {
            print("all good")
        } else {
            print("reading works" + (plainOnly == nil ? "" : " in plain mode") + (soundOff.map { "; sound is off: \($0.summary)" } ?? ""))
        }
    }

    /// "3 stories", "no such folder yet", for a library folder.
    private static func count(stories folder: String, paths: Paths) -> String {
        guard FileManager.default.fileExists(atPath: folder) else { return "no such folder yet" }
        let count = LibraryEntry.scan(folder, progress: paths.progressStore, formats: .all).count
        return count == 1 ? "1 story" : "\(count) stories"
    }

    /// The theme folders in search order, each with where it comes from (as `ThemeLibrary.searchPaths`).
    private static func themeFolders(paths: Paths, installation: Installation, environment: [String: String]) -> [(URL, String)] {
        let searched = ThemeLibrary.searchPaths(paths, installation: installation)
        return searched.map { folder in
            if let value = environment["PAJAMA_THEMES"], !value.isEmpty, folder.path == URL(fileURLWithPath: value).path {
                return (folder, "from $PAJAMA_THEMES")
            }
            if folder.path == paths.config.appendingPathComponent("themes").path { return (folder, "yours") }
            if let bundled = installation.themes, folder.path == bundled { return (folder, "bundled, \(installation.origin)") }
            return (folder, "./Themes of the current folder")
        }
    }

    /// The terminal's size from TIOCGWINSZ, when standard output is a terminal.
    private static func size() -> (columns: Int, rows: Int)? {
        guard isatty(STDOUT_FILENO) != 0 else { return nil }
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    private static func milliseconds(_ microseconds: UInt64) -> String {
        cFormat("%.1f ms", Double(microseconds) / 1000)
    }
}
