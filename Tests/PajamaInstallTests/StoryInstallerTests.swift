import Foundation
import PajamaModel
import PajamaFormats
import PajamaInkBridge
import PajamaHTTP
import PajamaInstall
import PajamaTestSupport
import Synchronization
import Testing
import ZIPFoundation

/// Accepts every asset's bytes: these tests are about what is copied, not about decoding.
struct AcceptingProbe: AssetProbe {
    func problemWithSound(_ path: AssetPath, _ bytes: [UInt8]) -> String? { nil }
    func problemWithImage(_ path: AssetPath, _ bytes: [UInt8]) -> String? { nil }
}

/// `pajama install-story` / `uninstall-story` below the command: folders, archives (hostile ones too), ink
/// files and URLs, against a real validator and real files in a temporary folder.
@Suite struct StoryInstallerTests {
    let validate: StoryInstaller.Validate = { folder in
        await StoryValidator.validate(source: StorySources.open(folder), probe: AcceptingProbe())
    }

    /// A copy of the bundled lantern-keeper under `folder/name`, with its id (and title) changed to `id`.
    func story(in temp: TemporaryDirectory, _ name: String = "tale", id: String = "tale") throws -> URL {
        let target = temp.url.appendingPathComponent(name)
        try FileManager.default.copyItem(at: PackagePaths.stories.appendingPathComponent("lantern-keeper"), to: target)
        let manifest = target.appendingPathComponent("story.json")
        var text = try String(contentsOf: manifest, encoding: .utf8)
        text = text.replacingOccurrences(of: "\"lantern-keeper\"", with: "\"\(id)\"")
        try text.write(to: manifest, atomically: true, encoding: .utf8)
        return target
    }

    /// Every path under `url`, relative, sorted.
    func listing(_ url: URL) -> [String] {
        (FileManager.default.subpaths(atPath: url.path) ?? []).sorted()
    }

    /// A .zip with `entries` (path, contents; contents nil for a folder), written by ZIPFoundation.
    func zip(_ url: URL, _ entries: [(String, String?)], symlink: (String, String)? = nil) throws {
        let archive = try Archive(url: url, accessMode: .create)
        for (path, contents) in entries {
            let data = Data((contents ?? "").utf8)
            try archive.addEntry(with: path, type: contents == nil ? .directory : .file, uncompressedSize: Int64(data.count),
                                 compressionMethod: .deflate) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        if let symlink {
            let (path, target) = symlink
            let data = Data(target.utf8)
            try archive.addEntry(with: path, type: .symlink, uncompressedSize: Int64(data.count)) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
    }

    /// A .zip of the folder `source` as `prefix/...` entries.
    func zip(folder source: URL, to url: URL, prefix: String) throws {
        let archive = try Archive(url: url, accessMode: .create)
        for path in listing(source) {
            let file = source.appendingPathComponent(path)
            try archive.addEntry(with: prefix.isEmpty ? path : prefix + "/" + path, fileURL: file, compressionMethod: .deflate)
        }
    }

    @Test func aFolderIsValidatedAndCopiedUnderItsId() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let source = try story(in: temp, "some-folder-name", id: "my-tale")
        try temp.write("some-folder-name/.git/HEAD", "ref: refs/heads/main\n")
        let stories = temp.url.appendingPathComponent("stories")
        let installed = try await StoryInstaller(folder: stories, formats: .all).install(source.path, validate: validate)
        #expect(installed.id == "my-tale" && installed.title == "The Lantern Keeper" && !installed.replaced)
        #expect(installed.folder == stories.appendingPathComponent("my-tale").path)
        // The same files, hidden ones left out; nothing else in the stories folder (no staging left).
        #expect(listing(URL(fileURLWithPath: installed.folder)) == listing(source).filter { !$0.hasPrefix(".git") })
        #expect(listing(stories).filter { !$0.contains("/") } == ["my-tale"])
    }

    @Test func aStoryWithErrorsIsRefusedWithTheFindingsAndNothingIsInstalled() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let source = try story(in: temp)
        try FileManager.default.removeItem(at: source.appendingPathComponent("beats/storm.json"))
        let stories = temp.url.appendingPathComponent("stories")
        let seen = Findings()
        await expectRefusal {
            _ = try await StoryInstaller(folder: stories, formats: .all).install(source.path, validate: validate, onReport: { seen.set($0) })
        } matching: { error in
            guard case .invalid(let path, let report) = error else { return false }
            return path == source.path && report.errorCount > 0
        }
        #expect(seen.get()?.findings.contains { $0.severity == .error && $0.description.contains("storm") } == true)
        #expect(listing(stories).isEmpty)
    }

    @Test func aZipWrappingTheStoryFolderInstalls() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let source = try story(in: temp, id: "zipped")
        let archive = temp.url.appendingPathComponent("tale.zip")
        try zip(folder: source, to: archive, prefix: "tale")
        let stories = temp.url.appendingPathComponent("stories")
        let installed = try await StoryInstaller(folder: stories, formats: .all).install(archive.path, validate: validate)
        #expect(installed.id == "zipped")
        #expect(listing(URL(fileURLWithPath: installed.folder)) == listing(source))
        let original = try Data(contentsOf: source.appendingPathComponent("assets/images/title.png"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: installed.folder).appendingPathComponent("assets/images/title.png")) == original)
    }

    @Test(arguments: [
        ("../escape.txt", "leaves the story's folder"),
        ("tale/../../escape.txt", "leaves the story's folder"),
        ("/tmp/absolute.txt", "an absolute path"),
        ("tale\\..\\escape.txt", "a backslash"),
    ])
    func anArchiveEntryLeavingTheFolderIsRefusedBeforeAnythingIsWritten(entry: String, reason: String) async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let archive = temp.url.appendingPathComponent("evil.zip")
        try zip(archive, [("story.json", "{}"), (entry, "gotcha")])
        let stories = temp.url.appendingPathComponent("a/b/stories")
        await expectRefusal {
            _ = try await StoryInstaller(folder: stories, formats: .all).install(archive.path, validate: validate)
        } matching: { error in
            guard case .unsafe(_, let named, let why) = error else { return false }
            return named == entry && why.contains(reason)
        }
        #expect(listing(stories).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: temp.url.appendingPathComponent("a/escape.txt").path))
        #expect(!FileManager.default.fileExists(atPath: temp.url.appendingPathComponent("a/b/escape.txt").path))
    }

    @Test func aSymbolicLinkInAnArchiveIsRefused() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let archive = temp.url.appendingPathComponent("link.zip")
        try zip(archive, [("story.json", "{}")], symlink: ("assets", "/etc"))
        let stories = temp.url.appendingPathComponent("stories")
        await expectRefusal {
            _ = try await StoryInstaller(folder: stories, formats: .all).install(archive.path, validate: validate)
        } matching: { error in
            guard case .unsafe(_, let entry, let why) = error else { return false }
            return entry == "assets" && why.contains("symbolic link")
        }
        #expect(listing(stories).isEmpty)
    }

    @Test func aSymbolicLinkInAFolderIsRefused() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let source = try story(in: temp)
        try FileManager.default.createSymbolicLink(atPath: source.appendingPathComponent("assets/secret").path, withDestinationPath: "/etc/passwd")
        let stories = temp.url.appendingPathComponent("stories")
        await expectRefusal {
            _ = try await StoryInstaller(folder: stories, formats: .all).install(source.path, validate: validate)
        } matching: { error in
            guard case .unsafe(_, let entry, let why) = error else { return false }
            return entry.hasSuffix("assets/secret") && why.contains("symbolic link")
        }
        #expect(listing(stories).isEmpty)
    }

    @Test func packagesOverTheLimitsAreRefused() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let source = try story(in: temp)
        let archive = temp.url.appendingPathComponent("tale.zip")
        try zip(folder: source, to: archive, prefix: "")
        let stories = temp.url.appendingPathComponent("stories")
        for input in [source.path, archive.path] {
            await expectRefusal {
                _ = try await StoryInstaller(folder: stories, formats: .all, limits: .init(bytes: 10_000)).install(input, validate: validate)
            } matching: { error in
                guard case .tooLarge(let path, let what) = error else { return false }
                return path == input && what.contains("more than 9 KB")
            }
            await expectRefusal {
                _ = try await StoryInstaller(folder: stories, formats: .all, limits: .init(entries: 5)).install(input, validate: validate)
            } matching: { error in
                guard case .tooLarge(_, let what) = error else { return false }
                return what.contains("more than 5 files")
            }
        }
        #expect(listing(stories).isEmpty)
    }

    @Test func anInstalledIdIsKeptUnlessReplaced() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let source = try story(in: temp)
        let stories = temp.url.appendingPathComponent("stories")
        let installer = StoryInstaller(folder: stories, formats: .all)
        _ = try await installer.install(source.path, validate: validate)
        try temp.write("tale/NEW.txt", "second version")
        await expectRefusal {
            _ = try await installer.install(source.path, validate: validate)
        } matching: { error in
            guard case .alreadyInstalled(let id, _) = error else { return false }
            return id == "tale"
        }
        #expect(!FileManager.default.fileExists(atPath: stories.appendingPathComponent("tale/NEW.txt").path))
        let again = try await installer.install(source.path, replace: true, validate: validate)
        #expect(again.replaced)
        #expect(FileManager.default.fileExists(atPath: stories.appendingPathComponent("tale/NEW.txt").path))
        #expect(listing(stories).filter { !$0.contains("/") } == ["tale"])
    }

    @Test func anInkFileAndTheFolderHoldingOneInstall() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let ferry = PackagePaths.stories.appendingPathComponent("ferry-cat")
        let stories = temp.url.appendingPathComponent("stories")
        let installer = StoryInstaller(folder: stories, formats: .all)
        let folder = try await installer.install(ferry.path, validate: validate)
        #expect(listing(URL(fileURLWithPath: folder.folder)) == listing(ferry))
        // The file alone installs with the pictures and sounds its tags name, as `read` and `validate` find them
        // beside it (it failed before the format seam: "cup.png: the file does not exist").
        let file = try await installer.install(ferry.appendingPathComponent("ferry-cat.ink.json").path, replace: true, validate: validate)
        #expect(file.replaced)
        let named = InkAssets.named(in: Array(try Data(contentsOf: ferry.appendingPathComponent("ferry-cat.ink.json")))).map(\.value)
        #expect(!named.isEmpty)
        let installed = Set(listing(URL(fileURLWithPath: file.folder)))
        #expect(installed.isSuperset(of: named + ["ferry-cat.ink.json"]), "\(installed)")
        let report = await StoryValidator.validate(source: StorySources.open(file.folder), probe: AcceptingProbe())
        #expect(report.errorCount == 0, "\(report.findings)")
    }

    static let twee = """
        :: StoryTitle
        The Tide Mill

        :: StoryData
        {"ifid": "6A1B7E52-0F0C-4B07-9A0C-3B1F9D1E5C32", "format": "Harlowe", "format-version": "3.3.9", "start": "Mill"}

        :: Mill
        <img src="images/mill.txt">The mill creaks. (track: 'wheel', 'play')
        [[Sea]]

        :: Sea
        The sea.

        :: hal.tracks
        wheel: ./sounds/wheel.ogg
        """

    /// A Twine file installs with the pictures and sounds it names (and nothing else of its folder); a folder
    /// holding one, and a .zip of that, install whole; a named file behind a symbolic link is refused.
    @Test func aTwineStoryInstallsWithWhatItNames() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try temp.write("downloads/tide-mill.twee", Self.twee)
        try temp.write("downloads/images/mill.txt", "~ MILL ~")
        try temp.write("downloads/sounds/wheel.ogg", "ogg")
        try temp.write("downloads/unrelated.txt", "not copied")
        let stories = temp.url.appendingPathComponent("stories")
        let installer = StoryInstaller(folder: stories, formats: .all)
        let file = try await installer.install(temp.url.appendingPathComponent("downloads/tide-mill.twee").path, validate: validate)
        #expect(file.id == "tide-mill" && file.title == "The Tide Mill")
        #expect(listing(URL(fileURLWithPath: file.folder)) == ["images", "images/mill.txt", "sounds", "sounds/wheel.ogg", "tide-mill.twee"])
        // The installed story reads from its new folder, as the library opens it.
        let report = await StoryValidator.validate(source: StorySources.open(file.folder), probe: AcceptingProbe())
        #expect(report.errorCount == 0, "\(report.findings)")

        // A folder with a published story (index.html): installed whole under the folder's name.
        let html = "<html><body><tw-storydata name=\"Web Mill\" startnode=\"1\" format=\"Harlowe\" format-version=\"3.3.9\" ifid=\"6A1B7E52-0F0C-4B07-9A0C-3B1F9D1E5C33\">"
            + "<tw-passagedata pid=\"1\" name=\"Mill\">&lt;img src=&quot;images/mill.txt&quot;&gt;The mill.</tw-passagedata></tw-storydata></body></html>"
        try temp.write("web-mill/index.html", html)
        try temp.write("web-mill/images/mill.txt", "~ MILL ~")
        let folder = try await installer.install(temp.url.appendingPathComponent("web-mill").path, validate: validate)
        #expect(folder.id == "web-mill" && folder.title == "Web Mill")
        #expect(listing(URL(fileURLWithPath: folder.folder)) == ["images", "images/mill.txt", "index.html"])
        try zip(folder: temp.url.appendingPathComponent("web-mill"), to: temp.url.appendingPathComponent("web-mill.zip"), prefix: "web-mill")
        let zipped = try await installer.install(temp.url.appendingPathComponent("web-mill.zip").path, replace: true, validate: validate)
        #expect(zipped.id == "web-mill" && zipped.replaced)

        // A picture the file names that is a link out of its folder: refused, nothing installed.
        try temp.write("linked/linked.twee", Self.twee.replacingOccurrences(of: "The Tide Mill", with: "Linked"))
        try FileManager.default.createDirectory(at: temp.url.appendingPathComponent("linked/images"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: temp.url.appendingPathComponent("linked/images/mill.txt").path, withDestinationPath: "/etc/passwd")
        await expectRefusal {
            _ = try await installer.install(temp.url.appendingPathComponent("linked/linked.twee").path, validate: validate)
        } matching: { error in
            guard case .unsafe(_, let entry, let why) = error else { return false }
            return entry.hasSuffix("images/mill.txt") && why.contains("symbolic link")
        }
        #expect(installer.installedIds() == ["tide-mill", "web-mill"])
    }

    @Test func aZipByURLInstallsAndAFolderURLIsExplained() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let served = temp.url.appendingPathComponent("served")
        try FileManager.default.createDirectory(at: served, withIntermediateDirectories: true)
        try zip(folder: try story(in: temp, id: "from-the-web"), to: served.appendingPathComponent("tale.zip"), prefix: "tale")
        let server = try await TestHTTPServer(root: served)
        let stories = temp.url.appendingPathComponent("stories")
        let installer = StoryInstaller(folder: stories, formats: .all)
        let installed = try await installer.install(server.baseURL + "/tale.zip", validate: validate)
        #expect(installed.id == "from-the-web")
        await expectRefusal {
            _ = try await installer.install(server.baseURL + "/tale/", validate: validate)
        } matching: { error in
            guard case .download(_, let reason) = error else { return false }
            return reason.contains("a URL must name a .zip, a compiled ink file (.ink.json, .json, .js) or a Twine story")
        }
        await expectRefusal {
            _ = try await installer.install(server.baseURL + "/missing.zip", validate: validate)
        } matching: { error in
            guard case .download(_, let reason) = error else { return false }
            return reason.contains("not found")
        }
        await server.stop()
    }

    /// A published Twine story in a folder on the web, `index.html` holding `passages` (escaped as Twine writes
    /// them).
    static func published(_ title: String, _ passages: String) -> String {
        let escaped = passages.replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
            .replacingOccurrences(of: "\"", with: "&quot;")
        return "<html><body><tw-storydata name=\"\(title)\" startnode=\"1\" format=\"Harlowe\" format-version=\"3.3.9\" "
            + "ifid=\"6A1B7E52-0F0C-4B07-9A0C-3B1F9D1E5C36\"><tw-passagedata pid=\"1\" name=\"Mill\">\(escaped)</tw-passagedata></tw-storydata></body></html>"
    }

    /// A Twine story by URL, on a real server on 127.0.0.1: its folder's URL or its file's (HTML or Twee), fetched
    /// with the pictures and sounds it names and nothing else; a missing picture, a 403 and a missing story
    /// refuse it, naming the file; a `src` leaving the folder is never asked for nor written; whatever is
    /// refused leaves the stories folder as it was.
    @Test func aTwineStoryByURLInstallsWithWhatItNames() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try temp.write("served/mill/index.html", Self.published("Web Mill", "<img src=\"images/mill.txt\">The mill."))
        try temp.write("served/mill/images/mill.txt", "~ MILL ~")
        try temp.write("served/mill/unrelated.txt", "not fetched")
        try temp.write("served/tide/tide-mill.twee", Self.twee)
        try temp.write("served/tide/images/mill.txt", "~ MILL ~")
        try temp.write("served/tide/sounds/wheel.ogg", "ogg")
        try temp.write("served/gap/index.html", Self.published("Gap", "<img src=\"images/gone.txt\">A gap."))
        try temp.write("served/locked/story.html", Self.published("Locked", "<img src=\"images/mill.txt\">Locked."))
        try temp.write("served/locked/images/mill.txt", "~ MILL ~")
        try temp.write("served/secret.txt", "secret")
        try temp.write("served/encoded/index.html", Self.published("Encoded", "<img src=\"%2e%2e/secret.txt\">Encoded."))
        try temp.write("served/evil/index.html", Self.published("Evil", """
            <img src="../secret.txt"><img src="/etc/passwd"><img src="images/../../secret.txt">Evil.
            """))
        let server = try await TestHTTPServer(root: temp.url.appendingPathComponent("served"), options: .init(statuses: ["locked/images/mill.txt": 403]))
        let stories = temp.url.appendingPathComponent("stories")
        let installer = StoryInstaller(folder: stories, formats: .all)

        let mill = try await installer.install(server.baseURL + "/mill/", validate: validate)
        #expect(mill.id == "mill" && mill.title == "Web Mill")
        #expect(listing(URL(fileURLWithPath: mill.folder)) == ["images", "images/mill.txt", "index.html"])
        #expect(server.requestCount(for: "mill/unrelated.txt") == 0)
        let again = try await installer.install(server.baseURL + "/mill/index.html", replace: true, validate: validate)
        #expect(again.id == "mill" && again.replaced)
        let tide = try await installer.install(server.baseURL + "/tide/tide-mill.twee", validate: validate)
        #expect(tide.id == "tide-mill" && tide.title == "The Tide Mill")
        #expect(listing(URL(fileURLWithPath: tide.folder)) == ["images", "images/mill.txt", "sounds", "sounds/wheel.ogg", "tide-mill.twee"])
        let report = await StoryValidator.validate(source: StorySources.open(tide.folder), probe: AcceptingProbe())
        #expect(report.errorCount == 0, "\(report.findings)")

        let seen = Findings()
        await expectRefusal {
            _ = try await installer.install(server.baseURL + "/gap/", validate: validate, onReport: { seen.set($0) })
        } matching: { error in
            guard case .invalid = error else { return false }
            return true
        }
        #expect(seen.get()?.findings.contains { $0.message == "passage \"Mill\": images/gone.txt: the file does not exist" } == true)
        await expectRefusal {
            _ = try await installer.install(server.baseURL + "/locked/", validate: validate)
        } matching: { error in
            guard case .download(let url, let reason) = error else { return false }
            return url == server.baseURL + "/locked/images/mill.txt" && reason.contains("HTTP 403")
        }
        await expectRefusal {
            _ = try await installer.install(server.baseURL + "/nothing/story.html", validate: validate)
        } matching: { error in
            guard case .download(let url, let reason) = error else { return false }
            return url == server.baseURL + "/nothing/story.html" && reason.contains("HTTP 404")
        }
        #expect(installer.installedIds() == ["mill", "tide-mill"])
        #expect(listing(stories).allSatisfy { !$0.hasPrefix(".install") })

        // Paths out of the folder are not package paths: never asked for, never written (validate warns of them).
        let evilReport = Findings()
        let evil = try await installer.install(server.baseURL + "/evil/", validate: validate, onReport: { evilReport.set($0) })
        #expect(listing(URL(fileURLWithPath: evil.folder)) == ["index.html"])
        #expect(server.requestCount(for: "secret.txt") == 0)
        #expect(server.requests(for: "evil/index.html").count == 1)
        #expect(evilReport.get()?.findings.filter { $0.message.contains("is not read") }.count == 3)
        // Percent-encoded dots are a name, not `..`: asked for as such (the server has no such file), never the secret.
        await expectRefusal {
            _ = try await installer.install(server.baseURL + "/encoded/", validate: validate)
        } matching: { error in
            guard case .invalid = error else { return false }
            return true
        }
        #expect(server.requestCount(for: "secret.txt") == 0)
        #expect(installer.installedIds() == ["evil", "mill", "tide-mill"])
        await server.stop()
    }

    @Test func notAStoryIsSaidSo() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try temp.write("plain/readme.txt", "hello")
        try temp.write("notes.txt", "hello")
        let stories = temp.url.appendingPathComponent("stories")
        let installer = StoryInstaller(folder: stories, formats: .all)
        for (input, expected) in [
            (temp.url.appendingPathComponent("plain").path, "the folder holds no story: no story.json, nor a compiled ink file"),
            (temp.url.appendingPathComponent("notes.txt").path, "expected a story folder, a .zip, a compiled ink file (.ink.json, .json, .js) or a Twine story"),
        ] {
            await expectRefusal {
                _ = try await installer.install(input, validate: validate)
            } matching: { error in
                guard case .notAStory(let path, let reason) = error else { return false }
                return path == input && reason.contains(expected)
            }
        }
        await expectRefusal {
            _ = try await installer.install(temp.url.appendingPathComponent("nothing").path, validate: validate)
        } matching: { error in
            guard case .notFound = error else { return false }
            return true
        }
        try Data("not a zip".utf8).write(to: temp.url.appendingPathComponent("broken.zip"))
        await expectRefusal {
            _ = try await installer.install(temp.url.appendingPathComponent("broken.zip").path, validate: validate)
        } matching: { error in
            guard case .notAStory(_, let reason) = error else { return false }
            return reason.contains("not a readable .zip")
        }
        #expect(listing(stories).isEmpty)
    }

    @Test func uninstallRemovesOnlyTheReadersOwnStory() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let stories = temp.url.appendingPathComponent("stories")
        let installer = StoryInstaller(folder: stories, formats: .all)
        _ = try await installer.install(try story(in: temp).path, validate: validate)
        #expect(installer.installedIds() == ["tale"])
        #expect(throws: InstallError.self) { try installer.remove(id: "../stories", bundled: nil) }
        await expectRefusal {
            _ = try installer.remove(id: "lantern-keeper", bundled: PackagePaths.stories.path)
        } matching: { error in
            guard case .bundled(let id, _) = error else { return false }
            return id == "lantern-keeper"
        }
        await expectRefusal {
            _ = try installer.remove(id: "other", bundled: PackagePaths.stories.path)
        } matching: { error in
            guard case .noSuchStory(_, _, let installed) = error else { return false }
            return installed == ["tale"]
        }
        let removed = try installer.remove(id: "tale", bundled: nil)
        #expect(removed == stories.appendingPathComponent("tale").path)
        #expect(listing(stories).isEmpty)
    }
}

/// Runs `body`, which must throw an `InstallError` that `matching` accepts (an issue is recorded otherwise).
func expectRefusal(
    _ body: () async throws -> Void, matching: (InstallError) -> Bool, sourceLocation: SourceLocation = #_sourceLocation
) async {
    do {
        try await body()
        Issue.record("expected a refusal, but it succeeded", sourceLocation: sourceLocation)
    } catch let error as InstallError {
        #expect(matching(error), "the refusal was: \(error)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected an InstallError, got \(error)", sourceLocation: sourceLocation)
    }
}

/// The report handed to `onReport`, kept for the test to read.
final class Findings: Sendable {
    private let report = Mutex<ValidationReport?>(nil)
    func set(_ value: ValidationReport) { report.withLock { $0 = value } }
    func get() -> ValidationReport? { report.withLock { $0 } }
}
