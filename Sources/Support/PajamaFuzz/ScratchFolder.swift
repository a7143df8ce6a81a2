import Foundation

/// One folder per process for the targets that read a file the way the reader does (settings, theme,
/// progress), a subfolder per target: on /dev/shm when there is one, so the saves' fsync costs no disk
/// write per input.
enum ScratchFolder {
    static let url: URL = {
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let url = URL(fileURLWithPath: base).appendingPathComponent("pajama-fuzz-\(ProcessInfo.processInfo.processIdentifier)")
        atexit { try? FileManager.default.removeItem(at: ScratchFolder.url) }
        return url
    }()

    /// Empties the target's folder and writes `bytes` as `name` in it; returns the file's URL.
    static func write(_ bytes: [UInt8], as name: String, for target: String) -> URL {
        let folder = url.appendingPathComponent(target)
        try? FileManager.default.removeItem(at: folder)
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent(name)
        guard FileManager.default.createFile(atPath: file.path, contents: Data(bytes)) else {
            // Without its scratch file the target cannot run the input: the run stops, saying why (a full
            // or read-only TMPDIR), rather than reporting the input as a finding.
            FileHandle.standardError.write(Data("fuzz harness: cannot write \(file.path) (is TMPDIR full or read-only?)\n".utf8))
            exit(2)
        }
        return file
    }
}
