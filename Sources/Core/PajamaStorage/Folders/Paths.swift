import FoundationEssentials
import Glibc
import PajamaBasics

/// Where Pajama keeps its files: the one place that knows the XDG rules.
///
/// Built once by the `pajama` command from its environment and passed down to what reads or writes
/// files; tests build one for a temporary folder (`Paths(home:)`) instead of changing the process's
/// environment. An unset or empty variable falls back to the XDG default under `HOME`. What is saved at
/// these paths (progress, bookmarks, settings) is read and written through `files`: the disk, or the tests'
/// `MemoryFiles` (PajamaTestSupport).
public struct Paths: Sendable {
    /// Files of remote stories: `$XDG_CACHE_HOME/pajama` (default `~/.cache/pajama`).
    public var cache: URL
    /// Saved reading progress: `$XDG_DATA_HOME/pajama/progress` (default `~/.local/share/pajama/progress`).
    public var progress: URL
    /// The reader's own stories, put there by `pajama install-story`: `$XDG_DATA_HOME/pajama/stories`
    /// (default `~/.local/share/pajama/stories`), beside `progress`.
    public var stories: URL { progress.deletingLastPathComponent().appendingPathComponent("stories") }
    /// Bookmarks and autosaves, one JSON file per story id: `$XDG_DATA_HOME/pajama/bookmarks`, beside
    /// `progress`.
    public var bookmarks: URL { progress.deletingLastPathComponent().appendingPathComponent("bookmarks") }
    /// Settings: `$XDG_CONFIG_HOME/pajama` (default `~/.config/pajama`).
    public var config: URL
    /// The reader's log (`pajama.log`, one older `pajama.log.1`): `$XDG_STATE_HOME/pajama` (default
    /// `~/.local/state/pajama`).
    public var state: URL
    /// The reader's own theme folders, first match wins: `$PAJAMA_THEMES` when set, then `config/themes`.
    public var themes: [URL]
    /// Where progress, bookmarks and settings are kept: `.disk`, or the tests' `MemoryFiles`.
    public var files: SavedFiles

    public init(cache: URL, progress: URL, config: URL, state: URL, themes: [URL], files: SavedFiles = .disk) {
        self.files = files
        self.cache = cache
        self.progress = progress
        self.config = config
        self.state = state
        self.themes = themes
    }

    /// The account's home folder from the password database, for a process started without HOME.
    static func accountHome() -> String {
        guard let entry = getpwuid(getuid()), let home = entry.pointee.pw_dir else { return "/" }
        return String(cString: home)
    }

    /// The folders named by `environment` (the process's, in `main`).
    public init(environment: [String: String]) {
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: Self.accountHome())
        func base(_ variable: String, _ fallback: String) -> URL {
            environment[variable].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) } ?? home.appendingPathComponent(fallback)
        }
        let config = base("XDG_CONFIG_HOME", ".config").appendingPathComponent("pajama")
        var themes: [URL] = []
        if let folder = environment["PAJAMA_THEMES"], !folder.isEmpty { themes.append(URL(fileURLWithPath: folder)) }
        themes.append(config.appendingPathComponent("themes"))
        self.init(
            cache: base("XDG_CACHE_HOME", ".cache").appendingPathComponent("pajama"),
            progress: base("XDG_DATA_HOME", ".local/share").appendingPathComponent("pajama/progress"),
            config: config, state: base("XDG_STATE_HOME", ".local/state").appendingPathComponent("pajama"), themes: themes)
    }

    /// Everything under one folder, as `Paths(environment: Paths.environment(home:))` finds it.
    public init(home: URL) {
        self.init(environment: Self.environment(home: home.path))
    }

    /// Volume and mute: `config/sound.json`.
    public var soundSettings: URL { config.appendingPathComponent("sound.json") }
    /// The reader's remembered theme: `config/reader.json`.
    public var readerSettings: URL { config.appendingPathComponent("reader.json") }
    /// The story's saved progress, in `progress` of `files`.
    public var progressStore: ProgressStore { ProgressStore(folder: progress, files: files) }
    /// The story's bookmarks and autosaves, in `bookmarks` of `files`.
    public var bookmarkStore: BookmarkStore { BookmarkStore(folder: bookmarks, files: files) }

    /// The log: `state/pajama.log`.
    public var logFile: URL { state.appendingPathComponent("pajama.log") }

    /// The variables that give a child process its own folders under `home` (data, config, cache, state
    /// and, when `runtime` is given, the runtime folder a sound server keeps its socket in).
    public static func environment(home: String, runtime: String? = nil) -> [String: String] {
        var environment = [
            "HOME": home, "XDG_DATA_HOME": home + "/data", "XDG_CONFIG_HOME": home + "/config", "XDG_CACHE_HOME": home + "/cache",
            "XDG_STATE_HOME": home + "/state",
        ]
        if let runtime { environment["XDG_RUNTIME_DIR"] = runtime }
        return environment
    }
}
