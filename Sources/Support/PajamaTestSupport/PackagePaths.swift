import Foundation

/// Where things are, for tests that drive the real binaries and read the bundled stories.
public enum PackagePaths {
    /// The package root (the folder holding Package.swift), found from this source file's path.
    public static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }()

    /// The bundled stories.
    public static var stories: URL { root.appendingPathComponent("Stories") }

    /// A built executable of this package: `$PAJAMA_BIN_DIR/name` when set, else the debug build folder.
    public static func executable(_ name: String) -> URL {
        if let dir = ProcessInfo.processInfo.environment["PAJAMA_BIN_DIR"] {
            return URL(fileURLWithPath: dir).appendingPathComponent(name)
        }
        return root.appendingPathComponent(".build/debug").appendingPathComponent(name)
    }
}
