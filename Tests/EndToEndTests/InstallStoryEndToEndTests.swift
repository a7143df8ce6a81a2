import Foundation
import PajamaCore
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
