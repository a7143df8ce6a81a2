import Foundation
import PajamaStorage
import PajamaTestSupport
import Testing

/// Where an installed (or checked-out) pajama finds its bundled stories and themes, and which folders the
/// library shows.
@Suite struct InstallationTests {
    @Test func anInstalledBinaryFindsShareBesideItsBin() throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try temp.write("usr/bin/pajama", "")
        try temp.write("usr/share/pajama/Stories/tale/story.json", "{}")
        try temp.write("usr/share/pajama/Themes/default.json", "{}")
        let found = Installation.find(executable: temp.path + "/usr/bin/pajama")
        #expect(found.kind == .installed(prefix: temp.path + "/usr"))
        #expect(found.stories == temp.path + "/usr/share/pajama/Stories")
        #expect(found.themes == temp.path + "/usr/share/pajama/Themes")
        #expect(found.origin == "installed with pajama under \(temp.path)/usr")
    }

    @Test func aBuildInACheckoutFindsTheCheckoutsFolders() throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try temp.write("Package.swift", "")
        try temp.write("Themes/default.json", "{}")
        try temp.write(".build/x86_64-unknown-linux-gnu/debug/pajama", "")
        let found = Installation.find(executable: temp.path + "/.build/x86_64-unknown-linux-gnu/debug/pajama")
        #expect(found.kind == .sourceCheckout(root: temp.path))
        #expect(found.themes == temp.path + "/Themes")
        #expect(found.stories == nil)  // no Stories folder in this checkout
    }

    @Test func aBinaryAloneHasNoBundledFiles() throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try temp.write("bin/pajama", "")  // a bin/ without share/pajama beside it
        let found = Installation.find(executable: temp.path + "/bin/pajama")
        #expect(found.kind == .alone && found.stories == nil && found.themes == nil)
    }

    @Test func theLibraryFoldersInOrder() throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let paths = Paths(home: temp.url.appendingPathComponent("home"))
        let installed = Installation(executable: "/usr/bin/pajama", kind: .installed(prefix: "/usr"), stories: "/usr/share/pajama/Stories", themes: nil)
        let cwd = temp.url.appendingPathComponent("cwd")
        try FileManager.default.createDirectory(at: cwd, withIntermediateDirectories: true)
        func resolve(_ argument: String?, _ environment: [String: String] = [:]) -> [LibraryFolders.Folder] {
            LibraryFolders.resolve(argument: argument, environment: environment, currentFolder: cwd.path, installation: installed, paths: paths).folders
        }
        // No ./Stories, no variable: the reader's own folder, then the bundled one.
        #expect(resolve(nil) == [.init(path: paths.stories.path, origin: .yours), .init(path: "/usr/share/pajama/Stories", origin: .installed)])
        #expect(paths.stories.path == temp.path + "/home/data/pajama/stories")
        // An argument, then $PAJAMA_STORIES (empty is unset), then ./Stories, each alone.
        #expect(resolve("/x", ["PAJAMA_STORIES": "/y"]) == [.init(path: "/x", origin: .argument)])
        #expect(resolve(nil, ["PAJAMA_STORIES": "/y"]) == [.init(path: "/y", origin: .environment)])
        #expect(resolve(nil, ["PAJAMA_STORIES": ""]).count == 2)
        try FileManager.default.createDirectory(at: cwd.appendingPathComponent("Stories"), withIntermediateDirectories: true)
        #expect(resolve(nil) == [.init(path: "Stories", origin: .currentFolder)])
        let library = LibraryFolders(folders: [.init(path: "/a", origin: .yours), .init(path: "/b", origin: .installed)])
        #expect(library.explicit == nil && library.title == "/a + /b")
        #expect(library.emptyHint.contains("pajama install-story"))
    }
}
