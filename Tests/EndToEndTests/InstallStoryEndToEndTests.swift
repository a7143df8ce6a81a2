import Foundation
import PajamaStorage
import PajamaTestSupport
import Testing

/// The real binary, run from a folder without ./Stories: the library is the bundled stories (here the
/// checkout's, as a source build finds them) and the reader's own, which install-story and uninstall-story
/// change; doctor says where each comes from.
@Suite(.serialized) struct InstallStoryEndToEndTests {
    let pajama = PackagePaths.executable("pajama").path

    static func quote(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    /// Runs pajama in `folder` with its own XDG folders under `home`.
    func run(_ arguments: [String], in folder: String, home: String) throws -> ChildProcess.Result {
        var environment = Paths.environment(home: home)
        environment["PATH"] = "/usr/bin:/bin"
        environment["LANG"] = "C.UTF-8"
        environment["PULSE_SERVER"] = "unix:/nonexistent"
        let command = "cd \(Self.quote(folder)) && exec " + ([pajama] + arguments).map(Self.quote).joined(separator: " ")
        return try ChildProcess.run("/bin/sh", ["-c", command], environment: environment)
    }

    @Test func installListDoctorAndUninstallOutsideTheCheckout() throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let elsewhere = temp.url.appendingPathComponent("elsewhere").path
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        let home = temp.url.appendingPathComponent("home").path
        let yours = home + "/data/pajama/stories"

        let before = try run(["list"], in: elsewhere, home: home)
        #expect(before.status == 0 && before.stdout.contains("lantern-keeper") && before.stdout.contains("night-garden"), "\(before)")

        // A copy of a bundled story with its own id, and a broken one.
        let copy = temp.url.appendingPathComponent("copy")
        try FileManager.default.copyItem(at: PackagePaths.stories.appendingPathComponent("lantern-keeper"), to: copy)
        let manifest = copy.appendingPathComponent("story.json")
        try String(contentsOf: manifest, encoding: .utf8)
            .replacingOccurrences(of: "\"lantern-keeper\"", with: "\"lantern-copy\"")
            .replacingOccurrences(of: "The Lantern Keeper", with: "A Copied Lantern")
            .write(to: manifest, atomically: true, encoding: .utf8)
        let broken = temp.url.appendingPathComponent("broken")
        try FileManager.default.copyItem(at: copy, to: broken)
        try FileManager.default.removeItem(at: broken.appendingPathComponent("beats/storm.json"))

        let refused = try run(["install-story", broken.path], in: elsewhere, home: home)
        #expect(refused.status == 1, "\(refused)")
        #expect(refused.stderr.contains("beats/storm.json") && refused.stderr.contains("pajama: cannot install: \(broken.path): the story has 2 errors"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: yours + "/lantern-copy"))

        let installed = try run(["install-story", copy.path], in: elsewhere, home: home)
        #expect(installed.status == 0 && installed.stdout.contains("installed A Copied Lantern (lantern-copy) in \(yours)/lantern-copy"), "\(installed)")
        let again = try run(["install-story", copy.path], in: elsewhere, home: home)
        #expect(again.status == 3 && again.stderr.contains("is installed already"), "\(again)")

        let after = try run(["list"], in: elsewhere, home: home)
        #expect(after.stdout.contains("lantern-copy") && after.stdout.contains("A Copied Lantern") && after.stdout.contains("lantern-keeper"), "\(after)")

        let doctor = try run(["doctor"], in: elsewhere, home: home)
        #expect(doctor.stdout.contains("\(yours) (yours: pajama install-story puts stories here): 1 story"), "\(doctor.stdout)")
        #expect(doctor.stdout.contains("\(PackagePaths.stories.path) (bundled, the source checkout \(PackagePaths.root.path))"), "\(doctor.stdout)")
        #expect(doctor.stdout.contains("\(PackagePaths.root.path)/Themes (bundled, the source checkout") && doctor.stdout.contains("default, mono, night, paper"), "\(doctor.stdout)")

        let removed = try run(["uninstall-story", "lantern-copy"], in: elsewhere, home: home)
        #expect(removed.status == 0, "\(removed)")
        #expect(!(try run(["list"], in: elsewhere, home: home)).stdout.contains("lantern-copy"))
        let gone = try run(["uninstall-story", "lantern-copy"], in: elsewhere, home: home)
        #expect(gone.status == 2 && gone.stderr.contains("no story with the id lantern-copy"), "\(gone)")
        let bundled = try run(["uninstall-story", "lantern-keeper"], in: elsewhere, home: home)
        #expect(bundled.status == 2 && bundled.stderr.contains("came with pajama"), "\(bundled)")
    }

    /// `read`, `play`, `validate` take a story's id as `pajama list` shows it; a path wins when both exist; an
    /// unknown id says so and names the close ones.
    @Test func theCommandsTakeAStorysIdAsWellAsAPath() throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let elsewhere = temp.url.appendingPathComponent("elsewhere").path
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        let home = temp.url.appendingPathComponent("home").path
        let validated = try run(["validate", "lantern-keeper"], in: elsewhere, home: home)
        #expect(validated.status == 0 && validated.stdout.contains("lantern-keeper: 0 errors"), "\(validated)")
        let played = try run(["play", "lantern-keeper", "--choices", "1,1"], in: elsewhere, home: home)
        #expect(played.status == 0 || played.status == 1, "\(played)")
        #expect(played.stdout.contains("stormy night"), "\(played)")
        let read = try run(["read", "--no-sound", "lantern-keeper"], in: elsewhere, home: home)
        #expect(read.status == 0 && read.stdout.contains("A short story for a stormy night"), "\(read)")
        let typo = try run(["validate", "lantern-keepr"], in: elsewhere, home: home)
        #expect(typo.status == 2, "\(typo)")
        #expect(typo.stderr.contains("no story in the library has that id") && typo.stderr.contains("did you mean lantern-keeper?"), "\(typo.stderr)")
        for command in ["read", "play", "host"] {
            let unknown = try run([command, "lantern-keepr"], in: elsewhere, home: home)
            #expect(unknown.status == 2 && unknown.stderr.contains("did you mean lantern-keeper?"), "\(command): \(unknown)")
        }
        // A folder of that name in the current folder is what is read.
        try FileManager.default.copyItem(atPath: PackagePaths.stories.appendingPathComponent("night-garden").path, toPath: elsewhere + "/lantern-keeper")
        let path = try run(["validate", "lantern-keeper"], in: elsewhere, home: home)
        #expect(path.stdout.contains("night-garden: 0 errors"), "\(path)")
    }

    /// A story.json whose id is invalid exits 1, as `pajama validate` and the man page say (not 2).
    @Test func anInvalidIdExitsOneAsValidateDoes() throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let home = temp.url.appendingPathComponent("home").path
        let story = temp.url.appendingPathComponent("bad")
        try FileManager.default.copyItem(at: PackagePaths.stories.appendingPathComponent("lantern-keeper"), to: story)
        let manifest = story.appendingPathComponent("story.json")
        try String(contentsOf: manifest, encoding: .utf8).replacingOccurrences(of: "\"lantern-keeper\"", with: "\"lantern keeper!\"")
            .write(to: manifest, atomically: true, encoding: .utf8)
        let validated = try run(["validate", story.path], in: temp.path, home: home)
        #expect(validated.status == 1, "\(validated)")
        let installed = try run(["install-story", story.path], in: temp.path, home: home)
        #expect(installed.status == 1, "\(installed)")
        #expect(installed.stderr.contains("story id"), "\(installed.stderr)")
    }

    /// A story with a bundled story's id is refused without --replace (it would hide the bundled one in the
    /// library, silently); with --replace it is installed, and the output says what it hides and how to undo it.
    @Test func aBundledStorysIdIsRefusedWithoutReplaceAndSaidWithIt() throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let elsewhere = temp.url.appendingPathComponent("elsewhere").path
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        let home = temp.url.appendingPathComponent("home").path
        let copy = temp.url.appendingPathComponent("lantern-keeper")
        try FileManager.default.copyItem(at: PackagePaths.stories.appendingPathComponent("lantern-keeper"), to: copy)
        let manifest = copy.appendingPathComponent("story.json")
        try String(contentsOf: manifest, encoding: .utf8).replacingOccurrences(of: "The Lantern Keeper", with: "My Lantern Keeper")
            .write(to: manifest, atomically: true, encoding: .utf8)
        let refused = try run(["install-story", copy.path], in: elsewhere, home: home)
        #expect(refused.status == 3, "\(refused)")
        #expect(refused.stderr.contains("came with pajama") && refused.stderr.contains("--replace"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: home + "/data/pajama/stories/lantern-keeper"))
        let replaced = try run(["install-story", "--replace", copy.path], in: elsewhere, home: home)
        #expect(replaced.status == 0, "\(replaced)")
        #expect(replaced.stdout.contains("in place of the one that came with pajama") && replaced.stdout.contains("uninstall-story lantern-keeper"),
                "\(replaced.stdout)")
        let list = try run(["list"], in: elsewhere, home: home)
        #expect(list.stdout.contains("My Lantern Keeper"), "\(list.stdout)")
    }

    /// `install-story FILE.ink.json` with its pictures and sounds beside it installs them with it, as read,
    /// play and validate find them.
    @Test func anInkFileIsInstalledWithThePicturesAndSoundsItNames() throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let home = temp.url.appendingPathComponent("home").path
        let folder = temp.url.appendingPathComponent("tale")
        try FileManager.default.copyItem(at: PackagePaths.stories.appendingPathComponent("ferry-cat"), to: folder)
        try FileManager.default.moveItem(at: folder.appendingPathComponent("ferry-cat.ink.json"), to: folder.appendingPathComponent("tale.ink.json"))
        let file = folder.appendingPathComponent("tale.ink.json").path
        let validated = try run(["validate", file], in: temp.path, home: home)
        #expect(validated.status == 0, "\(validated)")
        let installed = try run(["install-story", file], in: temp.path, home: home)
        #expect(installed.status == 0, "\(installed)")
        let target = home + "/data/pajama/stories/tale"
        let pictures = (try? FileManager.default.contentsOfDirectory(atPath: target + "/images")) ?? []
        #expect(!pictures.isEmpty, "no pictures installed: \((try? FileManager.default.subpathsOfDirectory(atPath: target)) ?? [])")
        let again = try run(["validate", target], in: temp.path, home: home)
        #expect(again.status == 0, "\(again)")
    }

    /// `pajama install-story URL` of a published Twine story on a real server on 127.0.0.1: its folder's URL,
    /// fetched with its picture and the one source of its HAL track the server has (the `.mp3` it lists first
    /// is missing: the `.wav` after it is taken), validated with the live decoders, then played from the
    /// library's folder; a 403 on its picture refuses it (exit 2) naming the picture's URL.
    @Test func aTwineStoryByURLInstallsWithItsPictureAndSound() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let passages = """
            <tw-passagedata pid="1" name="Mill">&lt;img src=&quot;images/mill.txt&quot;&gt;The mill turns. (track: &#39;wheel&#39;, &#39;play&#39;)
            [[Sea]]</tw-passagedata><tw-passagedata pid="2" name="Sea">The sea. The end.</tw-passagedata>
            <tw-passagedata pid="3" name="hal.tracks">wheel: sounds/wheel.mp3, sounds/wheel.wav</tw-passagedata>
            """
        let html = "<html><body><tw-storydata name=\"Web Mill\" startnode=\"1\" format=\"Harlowe\" format-version=\"3.3.9\" "
            + "ifid=\"6A1B7E52-0F0C-4B07-9A0C-3B1F9D1E5C37\">\(passages)</tw-storydata></body></html>"
        try temp.write("served/mill/index.html", html)
        try temp.write("served/mill/images/mill.txt", "==[ WEB MILL ]==")
        try temp.write("served/mill/sounds/wheel.wav", Data(TestSound.wav(seconds: 0.2, frequency: 440)))
        try temp.write("served/locked/index.html", html)
        try temp.write("served/locked/images/mill.txt", "==[ WEB MILL ]==")
        let server = try await TestHTTPServer(root: temp.url.appendingPathComponent("served"),
                                              options: .init(statuses: ["locked/images/mill.txt": 403]))
        defer { server.stopSoon() }
        let elsewhere = temp.url.path, home = temp.url.appendingPathComponent("home").path
        let yours = home + "/data/pajama/stories"

        let installed = try run(["install-story", server.baseURL + "/mill/"], in: elsewhere, home: home)
        #expect(installed.status == 0 && installed.stdout.contains("installed Web Mill (mill) in \(yours)/mill"), "\(installed)")
        let files = FileManager.default.enumerator(atPath: yours + "/mill")?.compactMap { $0 as? String }.sorted()
        #expect(files == ["images", "images/mill.txt", "index.html", "sounds", "sounds/wheel.wav"])
        let played = try run(["play", yours + "/mill", "--choices", "1"], in: elsewhere, home: home)
        #expect(played.status == 0 && played.stdout.contains("The mill turns.") && played.stdout.contains("The sea. The end."), "\(played)")

        let refused = try run(["install-story", server.baseURL + "/locked/"], in: elsewhere, home: home)
        #expect(refused.status == 2, "\(refused)")
        #expect(refused.stderr.contains("\(server.baseURL)/locked/images/mill.txt: cannot download: refused by the server (HTTP 403)"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: yours + "/locked"))
    }

    @Test func completionScriptsAreGeneratedFromTheCommands() throws {
        for shell in ["bash", "zsh", "fish"] {
            let result = try ChildProcess.run(pajama, ["--generate-completion-script", shell])
            #expect(result.status == 0, "\(shell): \(result)")
            #expect(result.stdout.contains("read") && result.stdout.contains("install-story") && result.stdout.contains("uninstall-story"), "\(shell)")
        }
        let dump = try ChildProcess.run(pajama, ["--experimental-dump-help"])
        #expect(dump.status == 0 && dump.stdout.contains("install-story"), "\(dump.stdout.prefix(300))")
    }
}
