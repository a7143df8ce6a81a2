import Foundation
import PajamaCore

/// The story package folder, read-only: a request path becomes a file inside the folder or nothing.
/// Paths follow the story format's rules (`AssetPath`), and a file reached through a link that leaves the
/// folder is refused.
struct PackageFiles: Sendable {
    /// The folder, with links resolved.
    let root: URL

    init(folder: URL) {
        root = folder.standardizedFileURL.resolvingSymlinksInPath()
    }

    enum Answer: Equatable {
        case file([UInt8])
        case notFound
        case refused(String)
    }

    /// The file at `requestPath` (the URL's path, percent-encoded, with its leading `/`).
    func read(requestPath: String) -> Answer {
        let raw = String(requestPath.drop { $0 == "/" })
        guard let decoded = raw.removingPercentEncoding else { return .refused("the path is not valid percent-encoding") }
        do {
            _ = try AssetPath(validating: decoded)
        } catch {
            return raw.isEmpty ? .notFound : .refused("\(error)")
        }
        let url = root.appendingPathComponent(decoded).resolvingSymlinksInPath()
        guard url.path.hasPrefix(root.path + "/") else { return .refused("the path leads outside the story folder") }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue,
              let data = FileManager.default.contents(atPath: url.path) else { return .notFound }
        return .file([UInt8](data))
    }
}
