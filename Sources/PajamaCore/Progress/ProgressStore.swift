import Foundation
import Logging

/// Saved reading progress, one JSON file per story id in `folder` (`Paths.progress`).
///
/// Saves are atomic (temp file, fsync, rename), so a crash never leaves half a file; a file that
/// cannot be read is moved aside and reported, never a crash.
public struct ProgressStore: Sendable {
    public let folder: URL

    public init(folder: URL) { self.folder = folder }

    private func file(_ storyId: String) -> URL { folder.appendingPathComponent(storyId + ".json") }

    /// Saves atomically. Errors are returned for the caller to report; reading goes on regardless.
    @discardableResult
    public func save(storyId: String, _ progress: ReadingProgress) -> String? {
        guard StoryManifest.isValidId(storyId) else { return "invalid story id" }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let data = try encoder.encode(progress)
            let temp = folder.appendingPathComponent(".\(storyId).\(ProcessInfo.processInfo.processIdentifier).tmp")
            if let problem = Self.writeDurably(data, to: temp) {
                unlink(temp.path)
                return problem
            }
            guard rename(temp.path, file(storyId).path) == 0 else {
                let problem = "cannot save progress: \(String(cString: strerror(errno)))"
                unlink(temp.path)
                return problem
            }
            // Make the rename itself durable.
            let directory = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if directory >= 0 {
                fsync(directory)
                close(directory)
            }
            return nil
        } catch {
            return "cannot save progress: \(error)"
        }
    }

    /// Writes all of `data` to a new file and flushes it to the disk; returns a problem or nil.
    private static func writeDurably(_ data: Data, to url: URL) -> String? {
        let fd = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return "cannot write \(url.path): \(String(cString: strerror(errno)))" }
        defer { close(fd) }
        var offset = 0
        while offset < data.count {
            let n = data.withUnsafeBytes { Foundation.write(fd, $0.baseAddress! + offset, data.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                return "cannot write \(url.path): \(String(cString: strerror(errno)))"
            }
            offset += n
        }
        guard fsync(fd) == 0 else { return "cannot flush \(url.path): \(String(cString: strerror(errno)))" }
        return nil
    }

    /// The result of loading: the progress, or nil; and a warning when a file was broken.
    public func load(storyId: String) -> (progress: ReadingProgress?, warning: String?) {
        let url = file(storyId)
        guard let data = try? Data(contentsOf: url) else { return (nil, nil) }
        if let progress = try? JSONDecoder().decode(ReadingProgress.self, from: data) { return (progress, nil) }
        let aside = url.appendingPathExtension("corrupt-\(Int(Date().timeIntervalSince1970))")
        do {
            try FileManager.default.moveItem(at: url, to: aside)
        } catch {
            // Kept in place: the next save replaces it. Said, since what it held is then gone.
            let problem = "saved progress \(url.path) is unreadable and could not be moved aside (\(error.localizedDescription)); starting afresh"
            PajamaLog.progress.error("\(problem)")
            return (nil, problem)
        }
        PajamaLog.progress.warning("unreadable progress moved aside", metadata: ["file": "\(url.path)", "to": "\(aside.path)"])
        return (nil, "saved progress was unreadable and was moved to \(aside.lastPathComponent); starting afresh")
    }

    /// Forgets a story's progress; returns (and logs) a problem when the file is there and stays.
    @discardableResult
    public func remove(storyId: String) -> String? {
        let url = file(storyId)
        do {
            try FileManager.default.removeItem(at: url)
            return nil
        } catch {
            guard FileManager.default.fileExists(atPath: url.path) else { return nil }  // nothing to forget
            let problem = "cannot forget progress \(url.path): \(error.localizedDescription)"
            PajamaLog.progress.error("\(problem)")
            return problem
        }
    }
}
