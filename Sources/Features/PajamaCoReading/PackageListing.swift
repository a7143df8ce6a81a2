import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaJSON

/// The story's files a host serves, as `GET /session/files` lists them (beats first): what a follower
/// fetches in the background to read on alone after the owner quits (`PackageDownload`).
public struct PackageListing: Sendable, Equatable, Codable {
    /// The listing's path on the host (beside the session's socket, never a path of a story package).
    public static let path = "session/files"

    public struct File: Sendable, Equatable, Codable {
        /// Relative to the package (`beats/start.json`, `assets/wolf.png`).
        public var path: String
        public var size: Int

        public init(path: String, size: Int) {
            self.path = path
            self.size = size
        }
    }

    public var files: [File]

    public init(files: [File]) {
        self.files = files
    }

    /// The package's size, every file counted.
    public var bytes: Int { files.reduce(0) { $0 + $1.size } }

    public func encoded() -> Data {
        Data((try? JSONValueEncoder.sorted.encode(self)) ?? Array("{\"files\":[]}".utf8))
    }
}
