import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaModel
import PajamaHTTP
import PajamaInkBridge
import PajamaStoryFormat
import PajamaChoiceScriptBridge
import PajamaSugarCubeBridge
import PajamaTwineBridge

extension FormatRegistry {
    /// Every format Pajama reads, in the order a path or a URL is asked: ink first (an ink story may be
    /// called story.json), then Pajama's own packages, then Twine (a folder with a story.json is never
    /// Twine), which leaves a SugarCube story to SugarCube's format after it. A new format is one line here and its own targets in Package.swift.
    public static let all = FormatRegistry([
        InkFormat(),
        PajamaPackageFormat(),
        TwineFormat(),
        ChoiceScriptFormat(),
        SugarCubeFormat(),
    ])
}

/// Opens a story argument with every format of `FormatRegistry.all`: a URL for `http://`/`https://` (the
/// package's base URL, or a story file's), else a file or folder on disk (docs/ink.md, "Which files are
/// ink"; docs/twine.md, "Which files are Twine").
public enum StorySources {
    /// `seed` fixes the story's random seed (random otherwise).
    public static func open(_ argument: String, seed: Int? = nil, formats: FormatRegistry = .all) async -> any StorySource {
        let lower = argument.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://"), let url = URL(string: argument) {
            return await formats.openRemote(url, seed: seed) { HTTPStorySource(baseURL: $0) }
        }
        return formats.openLocal(argument, seed: seed)
    }

    /// The story a co-reading host serves as files of its own (`StoryFilesSource.storyFiles`) beside its
    /// pictures and sounds in `base`, in the format the welcome names (or, from an older host, the one its
    /// files' names say); `base` itself when it names no files (a package).
    public static func made(base: any StorySource, format: String?, files: [String], seed: Int? = nil, formats: FormatRegistry = .all) -> any StorySource {
        guard !files.isEmpty, let format = formats.format(named: format, files: files) else { return base }
        return format.open(base: base, files: files, seed: seed, prefetched: nil)
    }
}
