import Foundation
import PajamaReader
import PajamaTerminal
import PajamaTestSupport
import Testing

/// Nothing is written outside the XDG folders (threat model, docs/security.md): a reading session, in
/// process, with its folders as `pajama` finds them in an environment whose HOME and XDG folders are all
/// inside one fresh folder (`Paths(home:)` is `Paths(environment:)` of that environment), leaves files only
/// under the XDG data, config and cache folders, and the story folder exactly as it was. (No product source
/// uses the temporary folder: TMPDIR is not the reader's to write in.)
@MainActor @Suite struct XDGConfinementTests {
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

    @Test func aReadingSessionWritesOnlyUnderTheXDGFolders() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-xdg")
        defer { home.remove() }
        let storyCopy = try TemporaryDirectory(prefix: "pajama-xdg-story")
        defer { storyCopy.remove() }
        let original = PackagePaths.stories.appendingPathComponent("lantern-keeper").path
        for (name, data) in files(under: original) { try storyCopy.write(name, data) }
        let before = files(under: storyCopy.path)
        let t = HeadlessReading.read(storyCopy.path, home: home)
        try await t.waitFor("A short story")
        try await t.press(.character(" "), thenWaitFor: "On a rock")
        try await t.type("t", thenWaitFor: "theme:")
        #expect(await t.quit() == 0)
        #expect(files(under: storyCopy.path) == before, "the story folder was changed")
        let written = files(under: home.path).keys.sorted()
        #expect(!written.isEmpty)
        for name in written {
            #expect(name.hasPrefix("data/pajama/") || name.hasPrefix("config/pajama/") || name.hasPrefix("cache/pajama/"),
                    "\(name) is outside the XDG folders")
        }
    }
}
