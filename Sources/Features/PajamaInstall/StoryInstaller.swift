import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaHTTP
import PajamaModel
import PajamaStoryFormat

/// Copies a story package someone sent into the reader's stories folder (`Paths.stories`), after the
/// validator found no error in it, and removes one again.
///
/// What is copied is untrusted: it is written only under a staging folder inside the stories folder
/// (`.install-<random>`), each path checked before anything is written (no `..`, no absolute path, no
/// symbolic link, no device or pipe), its real bytes counted against `Limits`, and it becomes
/// `stories/<id>` with one rename once it validates. Whatever fails leaves the stories folder as it was.
public struct StoryInstaller: Sendable {
    /// What a package may hold.
    public struct Limits: Sendable, Equatable {
        /// All files together, as written (not as an archive claims).
        public var bytes: Int64
        /// Files and folders.
        public var entries: Int
        /// A download (a .zip or an .ink.json by URL).
        public var download: Int

        public init(bytes: Int64 = 512 << 20, entries: Int = 10_000, download: Int = 256 << 20) {
            self.bytes = bytes
            self.entries = entries
            self.download = download
        }
    }

    /// What was installed.
    public struct Installed: Sendable, Equatable {
        public var id: String
        public var title: String
        public var folder: String
        /// True when it replaced a story with the same id.
        public var replaced: Bool
        /// The folder of the story with the same id that came with pajama, which the library now hides.
        public var hidesBundled: String?
    }

    /// Validates a staged story folder (the command passes `StoryValidator` with the live asset probe).
    public typealias Validate = @Sendable (_ folder: String) async -> ValidationReport

    /// The reader's stories folder (`Paths.stories`).
    public var folder: URL
    public var limits: Limits
    /// How long a silent download may wait for bytes.
    public var downloadTimeout: Duration
    /// The formats a package may be in (what is a story, its manifest, the files a story file names).
    public var formats: FormatRegistry

    public init(folder: URL, formats: FormatRegistry, limits: Limits = Limits(), downloadTimeout: Duration = .seconds(30)) {
        self.folder = folder
        self.formats = formats
        self.limits = limits
        self.downloadTimeout = downloadTimeout
    }

    // MARK: Installing

    /// Installs the package `argument` names: a story folder (with story.json, one compiled ink file, or a Twine
    /// story), a `.zip` of one, a compiled ink file, a Twine file (`.twee`, `.tw`, a published `.html`: copied
    /// with the pictures and sounds it names), or the `http(s)://` URL of a .zip or an ink file. `onReport`
    /// sees the validator's report (findings to print) before the story is installed or refused. `bundled` is
    /// the folder of the stories that came with pajama: a story with one of their ids is installed (hiding
    /// that one in the library) only with `replace`.
    public func install(
        _ argument: String, replace: Bool = false, bundled: String? = nil, validate: Validate,
        onReport: @Sendable (ValidationReport) -> Void = { _ in }
    ) async throws(InstallError) -> Installed {
        try makeFolder(folder)
        let staging = folder.appendingPathComponent(".install-\(UUID().uuidString.lowercased())")
        try makeFolder(staging)
        defer { try? FileManager.default.removeItem(at: staging) }

        let lower = argument.lowercased()
        let root: URL
        if lower.hasPrefix("http://") || lower.hasPrefix("https://"), let story = try await downloadStory(argument, into: staging) {
            root = story
        } else {
            var source = argument
            if lower.hasPrefix("http://") || lower.hasPrefix("https://") {
                source = try await download(argument, into: staging).path
            }
            // The staging folder is named as the package was (its folder's name, the archive's or the ink file's
            // folder's): an ink story with a generic file name (story.json, main.json) takes its id from it.
            let package = staging.appendingPathComponent(Self.folderName(for: source, shownAs: argument))
            root = try stage(source, shownAs: argument, into: package)
        }

        // Validated first: a story.json with errors (an invalid id among them) is refused as `pajama validate`
        // refuses it (exit 1), every finding said; then its id names its folder.
        let report = await validate(root.path)
        onReport(report)
        if report.couldNotRead || report.errorCount > 0 { throw .invalid(path: argument, report: report) }
        let manifest = try self.manifest(of: root.path, shownAs: argument)

        let target = folder.appendingPathComponent(manifest.id)
        // A story of the same id that came with pajama would be hidden in the library by this one: only on purpose.
        let hidden = bundled.map { PathText.appending($0, manifest.id) }.flatMap { path in
            FileManager.default.fileExists(atPath: path) && PathText.standardized(path) != PathText.standardized(target.path) ? path : nil
        }
        if let hidden, !replace { throw .hidesBundled(id: manifest.id, folder: hidden) }
        var replaced = false
        if FileManager.default.fileExists(atPath: target.path) {
            guard replace else { throw .alreadyInstalled(id: manifest.id, folder: target.path) }
            // The old copy moves into the staging folder (removed with it) only once the new one is whole.
            try move(target, to: staging.appendingPathComponent("previous"))
            replaced = true
        }
        try move(root, to: target)
        return Installed(id: manifest.id, title: manifest.title, folder: target.path, replaced: replaced, hidesBundled: hidden)
    }

    /// Copies or extracts `source` under `package`; returns the story's folder inside it.
    func stage(_ source: String, shownAs shown: String, into package: URL) throws(InstallError) -> URL {
        var isFolder = false
        guard FileManager.default.fileExists(atPath: source, isDirectory: &isFolder) else { throw .notFound(path: shown) }
        var budget = Budget(limits: limits, shownAs: shown)
        if isFolder {
            guard isStory(source) else {
                throw .notAStory(path: shown, reason: "the folder holds no story: no story.json, nor \(formats.storyFileKinds)")
            }
            try FolderCopy.copy(URL(fileURLWithPath: source), to: package, budget: &budget)
            return package
        }
        let name = PathText.lastComponent(source)
        if name.lowercased().hasSuffix(".zip") {
            try ZipExtraction.extract(URL(fileURLWithPath: source), to: package, budget: &budget)
            return try storyRoot(in: package, shownAs: shown)
        }
        if let story = formats.find(at: source), !story.files.isEmpty {
            // A story file (ink, Twine...): its own files and the pictures and sounds they name, beside it.
            try makeFolder(package)
            let from = URL(fileURLWithPath: story.folder)
            let files = story.packageFiles()
            for file in files.storyFiles.keys.sorted() {
                try FolderCopy.copyFile(from.appendingPathComponent(file), to: package.appendingPathComponent(file), entry: file, budget: &budget)
            }
            try FolderCopy.copyNamed(files.assets.sorted(), from: from, to: package, budget: &budget)
            return package
        }
        throw .notAStory(path: shown, reason: "expected a story folder, a .zip, \(formats.storyFileKinds)")
    }

    /// Whether the folder `path` is a story: a package (story.json), one compiled ink file, or a Twine story.
    func isStory(_ path: String) -> Bool { formats.isStoryFolder(path) }

    /// The folder holding story.json (or the one .ink.json) in an extracted archive: its top, or its one
    /// top-level folder (archives usually wrap the story's folder).
    func storyRoot(in package: URL, shownAs shown: String) throws(InstallError) -> URL {
        func isStory(_ url: URL) -> Bool { self.isStory(url.path) }
        if isStory(package) { return package }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: package.path)) ?? []).filter { !$0.hasPrefix(".") }
        if names.count == 1 {
            let inner = package.appendingPathComponent(names[0])
            var isFolder = false
            if FileManager.default.fileExists(atPath: inner.path, isDirectory: &isFolder), isFolder, isStory(inner) { return inner }
        }
        throw .notAStory(path: shown, reason: "the archive holds no story.json (nor \(formats.storyFileKinds)) at its top or in its one folder")
    }

    /// The manifest of a staged story, its id checked as a folder name.
    func manifest(of root: String, shownAs shown: String) throws(InstallError) -> StoryManifest {
        let manifest: StoryManifest
        do {
            guard let story = formats.find(at: root) else { throw StorySourceError.notAStory(path: root, reason: "no story there") }
            manifest = try story.manifest()
        } catch {
            throw .notAStory(path: shown, reason: "\(error)")
        }
        guard StoryManifest.isValidId(manifest.id) else {
            throw .notAStory(path: shown, reason: "its id \"\(StoryFormatError.printable(manifest.id))\" is not 1-128 letters, digits, - or _")
        }
        return manifest
    }

    /// A folder name for the staged package: the story folder's own name, the archive's name without .zip, or
    /// the name of the folder holding an ink file (the URL's for a download); characters an id cannot hold
    /// become `-`.
    static func folderName(for source: String, shownAs shown: String) -> String {
        let url = URL(fileURLWithPath: source)
        var isFolder = false
        _ = FileManager.default.fileExists(atPath: source, isDirectory: &isFolder)
        var name: String
        if isFolder {
            name = url.lastPathComponent
        } else if url.pathExtension.lowercased() == "zip" {
            name = url.deletingPathExtension().lastPathComponent
            if name.hasPrefix("download-") { name = String(name.dropFirst("download-".count)) }
        } else if let remote = URL(string: shown), remote.host != nil {
            name = remote.deletingLastPathComponent().lastPathComponent
        } else {
            name = url.deletingLastPathComponent().lastPathComponent
        }
        return cleanedName(name)
    }

    /// `name` as a folder name an id can be: characters an id cannot hold become `-`; "story" when nothing is left.
    static func cleanedName(_ name: String) -> String {
        let cleaned = String(name.unicodeScalars.prefix(100).map { scalar -> Character in
            let ok = (scalar.value < 0x80) && (scalar.properties.isAlphabetic || scalar.properties.numericType != nil || scalar == "-" || scalar == "_")
            return ok ? Character(scalar) : "-"
        })
        return cleaned.isEmpty || cleaned.allSatisfy({ $0 == "-" }) ? "story" : cleaned
    }

    /// Downloads the .zip `argument` names into `staging` (a story file by URL is `downloadStory`'s).
    func download(_ argument: String, into staging: URL) async throws(InstallError) -> URL {
        guard let url = URL(string: argument), url.host != nil else { throw .download(url: argument, reason: "not a valid URL") }
        let name = url.lastPathComponent
        guard name.lowercased().hasSuffix(".zip") else {
            let usual = formats.usualNames.joined(separator: ", ")
            throw .download(url: argument, reason: """
                a URL must name a .zip, \(formats.storyFileKinds), or a folder whose \(usual) is one; another story folder \
                on a web server is read where it is: pajama read \(argument)
                """)
        }
        let source = HTTPStorySource(baseURL: url.deletingLastPathComponent(), progressTimeout: downloadTimeout, maximumResponseSize: limits.download)
        let bytes: [UInt8]
        do {
            bytes = try await source.read(name)
        } catch {
            throw .download(url: argument, reason: "\(error)")
        }
        let file = staging.appendingPathComponent("download-" + name)
        do {
            try Data(bytes).write(to: file, options: .withoutOverwriting)
        } catch {
            throw .io(path: file.path, reason: "cannot write the download: \(errorText(error))")
        }
        return file
    }

    // MARK: Removing

    /// Removes the reader's story `id` (its folder in `folder`); `bundled` is the stories folder installed
    /// with pajama, to say so when `id` is one of those. Reading progress and bookmarks are kept.
    public func remove(id: String, bundled: String?) throws(InstallError) -> String {
        let target = folder.appendingPathComponent(id)
        var isFolder = false
        guard StoryManifest.isValidId(id), FileManager.default.fileExists(atPath: target.path, isDirectory: &isFolder), isFolder
        else {
            if let bundled, StoryManifest.isValidId(id), FileManager.default.fileExists(atPath: PathText.appending(bundled, id)) {
                throw .bundled(id: id, folder: bundled)
            }
            throw .noSuchStory(id: id, folder: folder.path, installed: installedIds())
        }
        do {
            try FileManager.default.removeItem(at: target)
        } catch {
            throw .io(path: target.path, reason: "cannot remove: \(errorText(error))")
        }
        return target.path
    }

    /// The ids of the reader's installed stories (their folder names), sorted.
    public func installedIds() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { StoryManifest.isValidId($0) }.sorted()
    }

    // MARK: Files

    private func makeFolder(_ url: URL) throws(InstallError) {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw .io(path: url.path, reason: "cannot create the folder: \(errorText(error))")
        }
    }

    private func move(_ from: URL, to: URL) throws(InstallError) {
        guard rename(from.path, to.path) == 0 else {
            throw .io(path: to.path, reason: "cannot move \(from.path) there: \(String(cString: strerror(errno)))")
        }
    }
}

/// The running totals of one package against the limits.
struct Budget {
    let limits: StoryInstaller.Limits
    let shownAs: String
    private(set) var bytes: Int64 = 0
    private(set) var entries = 0

    init(limits: StoryInstaller.Limits, shownAs: String) {
        self.limits = limits
        self.shownAs = shownAs
    }

    /// "512 MB", "9 KB", "100 bytes".
    static func size(_ bytes: Int64) -> String {
        bytes >= 1 << 20 ? "\(bytes >> 20) MB" : bytes >= 1 << 10 ? "\(bytes >> 10) KB" : "\(bytes) bytes"
    }

    mutating func addEntry() throws(InstallError) {
        entries += 1
        if entries > limits.entries { throw .tooLarge(path: shownAs, what: "more than \(limits.entries) files and folders") }
    }

    mutating func add(bytes count: Int64) throws(InstallError) {
        bytes += count
        if bytes > limits.bytes { throw .tooLarge(path: shownAs, what: "more than \(Self.size(limits.bytes)) of files") }
    }
}
