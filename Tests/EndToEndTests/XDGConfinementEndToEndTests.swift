import Foundation
import PajamaTestSupport
import Testing

/// Nothing is written outside the XDG folders (threat model, docs/security.md): a reading session on
/// the real binary, with HOME, the XDG folders and TMPDIR all inside one fresh folder, leaves files only
/// under the XDG data, config and cache folders, and the story folder exactly as it was.
@Suite(.serialized) struct XDGConfinementEndToEndTests {
    let pajama = PackagePaths.executable("pajama").path

    /// Every regular file under `root`, relative, with its contents.
    func files(under root: String) -> [String: Data] {
        var out: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let name = enumerator?.nextObject() as? String {
            var info = stat()
            guard lstat(root + "/" + name, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            out[name] = FileManager.default.contents(atPath: root + "/" + name) ?? Data()
        }
        return out
    }

    @Test func aReadingSessionWritesOnlyUnderTheXDGFolders() throws {
        let home = try TemporaryDirectory(prefix: "pajama-xdg")
        defer { home.remove() }
        let storyCopy = try TemporaryDirectory(prefix: "pajama-xdg-story")
        defer { storyCopy.remove() }
        let original = PackagePaths.stories.appendingPathComponent("lantern-keeper").path
        for (name, data) in files(under: original) { try storyCopy.write(name, data) }
        let before = files(under: storyCopy.path)
        try FileManager.default.createDirectory(atPath: home.path + "/tmp", withIntermediateDirectories: true)
        let t = try TmuxSession([pajama, "read", "--no-sound", storyCopy.path], environment: ["TMPDIR": home.path + "/tmp"], home: home)
        defer { t.stop() }
        try t.waitFor("A short story")
        try t.press("Space", thenWaitFor: "On a rock")
        try t.press("t", thenWaitFor: "theme:")
        try t.press("q", thenWaitFor: "[exited 0]")
        #expect(files(under: storyCopy.path) == before, "the story folder was changed")
        let written = files(under: home.path).keys.sorted()
        #expect(!written.isEmpty)
        for name in written {
            #expect(name.hasPrefix("data/pajama/") || name.hasPrefix("config/pajama/") || name.hasPrefix("cache/pajama/"),
                    "\(name) is outside the XDG folders")
        }
    }
}
