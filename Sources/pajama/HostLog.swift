import Foundation
import Synchronization

/// The host's log file: one line per refused request, appended with the time (the screen is the
/// reader's while hosting, so nothing is written to the terminal).
final class HostLog: Sendable {
    private let handle = Mutex<FileHandle?>(nil)
    let file: URL

    init(file: URL) {
        self.file = file
    }

    func write(_ line: String) {
        let stamped = "\(Date().ISO8601Format()) \(line)\n"
        handle.withLock { handle in
            if handle == nil {
                try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                if !FileManager.default.fileExists(atPath: file.path) { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
                handle = try? FileHandle(forWritingTo: file)
                _ = try? handle?.seekToEnd()
            }
            try? handle?.write(contentsOf: Data(stamped.utf8))
        }
    }
}
