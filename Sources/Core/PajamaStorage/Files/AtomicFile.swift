import FoundationEssentials
import Glibc
import PajamaBasics

/// Whole files written atomically and durably, for what Pajama keeps of a reader (progress, bookmarks):
/// the data goes to a temporary file beside the target (`.<name>.<pid>.tmp`), is flushed to the disk,
/// renamed over the target, and the rename itself is flushed; so the file on disk is always the old or
/// the new one, whenever the process stops. A file that cannot be used is moved aside, never deleted.
public enum AtomicFile {
    /// Writes `data` to `url` (creating its folder); returns the problem in words, or nil. The reason comes
    /// first ("No space left on device (writing ...)"): a status line shows the start of it.
    public static func write(_ data: Data, to url: URL) -> String? {
        let folder = url.deletingLastPathComponent(), name = url.lastPathComponent
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            return "\(errorText(error)) (creating \(folder.path))"
        }
        let temp = folder.appendingPathComponent(".\(name).\(ProcessInfo.processInfo.processIdentifier).tmp")
        if let problem = writeDurably(data, to: temp) {
            unlink(temp.path)
            return problem
        }
        guard rename(temp.path, url.path) == 0 else {
            let problem = "\(String(cString: strerror(errno))) (renaming to \(url.path))"
            unlink(temp.path)
            return problem
        }
        // Make the rename itself durable.
        let directory = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
        removeStaleTemporaryFiles(of: name, in: folder)
        return nil
    }

    /// Moves a file that cannot be used to `<name>.corrupt-<time>` beside it; returns where, or throws.
    public static func moveAside(_ url: URL) throws -> URL {
        let aside = SavedFiles.asideName(of: url, at: Date())
        try FileManager.default.moveItem(at: url, to: aside)
        return aside
    }

    /// Removes the temporary files of writes of `name` by processes that no longer run (a reader killed
    /// mid-write leaves its `.<name>.<pid>.tmp`); a running reader's file is left alone.
    private static func removeStaleTemporaryFiles(of name: String, in folder: URL) {
        let prefix = ".\(name).", own = ProcessInfo.processInfo.processIdentifier
        for file in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where file.hasPrefix(prefix) && file.hasSuffix(".tmp") {
            guard let pid = Int32(file.dropFirst(prefix.count).dropLast(".tmp".count)), pid != own else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH { unlink(folder.appendingPathComponent(file).path) }
        }
    }

    /// Writes all of `data` to a new file and flushes it to the disk; returns the problem (the system's
    /// reason first) or nil.
    private static func writeDurably(_ data: Data, to url: URL) -> String? {
        func problem(_ doing: String) -> String { "\(String(cString: strerror(errno))) (\(doing) \(url.path))" }
        let fd = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return problem("writing") }
        defer { close(fd) }
        var offset = 0
        while offset < data.count {
            let n = data.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, data.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                return problem("writing")
            }
            offset += n
        }
        guard fsync(fd) == 0 else { return problem("flushing") }
        return nil
    }
}
