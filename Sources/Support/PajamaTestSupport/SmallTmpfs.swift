import Foundation

/// A small tmpfs mounted on a folder, for tests of a full disk (mounting needs root; `isAvailable`
/// says whether this machine allows it, so a test can be skipped with the reason).
public struct SmallTmpfs: Sendable {
    public let mountPoint: URL

    /// Mounts a tmpfs of `kilobytes` on `mountPoint` (made if missing).
    public init(at mountPoint: URL, kilobytes: Int) throws {
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        let result = try ChildProcess.run("mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k", "tmpfs", mountPoint.path])
        guard result.status == 0 else { throw MountError(message: "mount -t tmpfs on \(mountPoint.path): \(result.stderr)") }
        self.mountPoint = mountPoint
    }

    public struct MountError: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// Whether a tmpfs can be mounted here (tried once on a scratch folder).
    public static let isAvailable: Bool = {
        guard let scratch = try? TemporaryDirectory(prefix: "pajama-tmpfs-probe") else { return false }
        defer { scratch.remove() }
        guard let probe = try? SmallTmpfs(at: scratch.url.appendingPathComponent("m"), kilobytes: 16) else { return false }
        probe.unmount()
        return true
    }()

    /// Fills the file system to the last byte with one file (`filler`); returns its size.
    @discardableResult
    public func fill() -> Int {
        let fd = open(mountPoint.appendingPathComponent("filler").path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return 0 }
        defer { close(fd) }
        let block = [UInt8](repeating: 0, count: 4096)
        var total = 0
        var size = block.count
        // Whole blocks while they fit, then single bytes for what is left of a partly used block.
        while size > 0 {
            let n = block.withUnsafeBytes { write(fd, $0.baseAddress!, size) }
            if n > 0 { total += n } else if n == 0 || errno != EINTR { size = size > 1 ? 1 : 0 }
        }
        return total
    }

    /// Unmounts (lazily: a process still holding a file there does not keep the test waiting).
    public func unmount() {
        _ = try? ChildProcess.run("umount", ["-l", mountPoint.path])
    }
}
