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
            if let reason = Self.writeDurably(data, to: temp) {
                unlink(temp.path)
                // The reason first: the status line shows the start of it ("No space left on device").
                return "cannot save progress: \(reason) (\(file(storyId).path))"
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
            removeStaleTemporaryFiles(storyId)
            return nil
        } catch {
            return "cannot save progress: \(error)"
        }
    }

    /// Removes the temporary files of this story's saves by processes that no longer run (a reader
    /// killed mid-save leaves its `.<story>.<pid>.tmp`); a running reader's file is left alone.
    private func removeStaleTemporaryFiles(_ storyId: String) {
        let prefix = ".\(storyId).", own = ProcessInfo.processInfo.processIdentifier
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            guard let pid = Int32(name.dropFirst(prefix.count).dropLast(".tmp".count)), pid != own else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH { unlink(folder.appendingPathComponent(name).path) }
        }
    }

    /// Writes all of `data` to a new file and flushes it to the disk; returns the reason it could not
    /// (the system's words: "No space left on device") or nil.
    private static func writeDurably(_ data: Data, to url: URL) -> String? {
        func reason() -> String { String(cString: strerror(errno)) }
        let fd = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return reason() }
        defer { close(fd) }
        var offset = 0
        while offset < data.count {
            let n = data.withUnsafeBytes { Foundation.write(fd, $0.baseAddress! + offset, data.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                return reason()
            }
            offset += n
        }
        guard fsync(fd) == 0 else { return reason() }
        return nil
    }

    /// The largest progress file read (a history of 500 places is far below it).
    public static let maximumFileSize = 1 << 20

    /// The result of loading: the progress, or nil; and a warning when a file was broken.
    ///
    /// Whatever is at the path, loading never hangs or reads without limit: a named pipe, a folder, a
    /// file over `maximumFileSize` or one that is not whole, valid progress is moved aside, and the
    /// warning names the file and the reason.
    public func load(storyId: String) -> (progress: ReadingProgress?, warning: String?) {
        let url = file(storyId)
        let problem: String
        switch RegularFile.read(url.path, limit: Self.maximumFileSize) {
        case .missing: return (nil, nil)
        case .unusable(let reason): problem = reason
        case .bytes(let bytes):
            do {
                return (try JSONDecoder().decode(ReadingProgress.self, from: Data(bytes)), nil)
            } catch {
                problem = Self.reason(error)
            }
        }
        let aside = url.appendingPathExtension("corrupt-\(Int(Date().timeIntervalSince1970))")
        do {
            try FileManager.default.moveItem(at: url, to: aside)
        } catch {
            // Kept in place: the next save replaces it. Said, since what it held is then gone.
            let said = "saved progress \(url.path) is unreadable (\(problem)) and could not be moved aside (\(error.localizedDescription)); starting afresh"
            PajamaLog.progress.error("\(said)")
            return (nil, said)
        }
        PajamaLog.progress.warning("unreadable progress moved aside", metadata: ["file": "\(url.path)", "to": "\(aside.path)", "reason": "\(problem)"])
        return (nil, "saved progress \(url.lastPathComponent) was unreadable (\(problem)) and was moved to \(aside.lastPathComponent); starting afresh")
    }

    /// A decoding error in words, naming the field.
    static func reason(_ error: any Error) -> String {
        func field(_ path: [any CodingKey]) -> String {
            path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error as? DecodingError {
        case .keyNotFound(let key, let context)?:
            return "the field \"\((context.codingPath + [key]).map(\.stringValue).joined(separator: "."))\" is missing"
        case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?:
            return context.codingPath.isEmpty ? "not valid progress: expected an object" : "\"\(field(context.codingPath))\" has the wrong type"
        case .dataCorrupted(let context)?:
            return context.codingPath.isEmpty ? "not valid JSON" : "\"\(field(context.codingPath))\" is not valid"
        default:
            return "\(error)"
        }
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
