import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaModel

/// Copies a story folder file by file: plain files and folders only (a symbolic link, a pipe or a device
/// is refused, naming it), hidden files and folders (`.git`, `.DS_Store`) left out, every byte counted.
enum FolderCopy {
    static func copy(_ source: URL, to target: URL, budget: inout Budget) throws(InstallError) {
        try createFolder(target)
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: source.path).sorted()
        } catch {
            throw .io(path: source.path, reason: "cannot list the folder: \(errorText(error))")
        }
        for name in names where !name.hasPrefix(".") {
            let from = source.appendingPathComponent(name)
            let to = target.appendingPathComponent(name)
            var info = stat()
            guard lstat(from.path, &info) == 0 else {
                throw .io(path: from.path, reason: "cannot read: \(String(cString: strerror(errno)))")
            }
            try budget.addEntry()
            switch info.st_mode & S_IFMT {
            case S_IFDIR: try copy(from, to: to, budget: &budget)
            case S_IFREG: try copyFile(from, to: to, entry: from.path, budget: &budget)
            case S_IFLNK: throw .unsafe(path: budget.shownAs, entry: from.path, reason: "a symbolic link (a story holds only files and folders)")
            default: throw .unsafe(path: budget.shownAs, entry: from.path, reason: "not a plain file or folder")
            }
        }
    }

    /// Copies the files `paths` (package paths: relative, no `..`) names in `source` to the same places under
    /// `target`, every folder on the way a plain folder (a symbolic link anywhere is refused, naming it); a
    /// path with no file is left out (the validator says it is missing).
    static func copyNamed(_ paths: [AssetPath], from source: URL, to target: URL, budget: inout Budget) throws(InstallError) {
        for path in paths {
            let parts = path.value.split(separator: "/").map(String.init)
            var from = source, to = target
            var present = true
            for (index, part) in parts.enumerated() {
                from.appendPathComponent(part)
                to.appendPathComponent(part)
                var info = stat()
                guard lstat(from.path, &info) == 0 else {
                    present = false
                    break
                }
                let last = index == parts.count - 1
                switch info.st_mode & S_IFMT {
                case S_IFDIR where !last: try createFolder(to)
                case S_IFREG where last:
                    guard !FileManager.default.fileExists(atPath: to.path) else { break }
                    try budget.addEntry()
                    try copyFile(from, to: to, entry: from.path, budget: &budget)
                case S_IFLNK: throw .unsafe(path: budget.shownAs, entry: from.path, reason: "a symbolic link (a story holds only files and folders)")
                default: present = false
                }
                if !present { break }
            }
        }
    }

    /// Copies one plain file through open file descriptors (never following a link at the target: it is
    /// created new, `O_EXCL`), counting its bytes.
    static func copyFile(_ from: URL, to: URL, entry: String, budget: inout Budget) throws(InstallError) {
        let input = open(from.path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard input >= 0 else { throw .io(path: from.path, reason: "cannot open: \(String(cString: strerror(errno)))") }
        defer { close(input) }
        let output = try Self.create(to)
        defer { close(output) }
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .io(path: from.path, reason: "cannot read: \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            try budget.add(bytes: Int64(count))
            try write(output, buffer[0..<count], path: to.path)
        }
    }

    /// A new file (0644) that must not exist yet.
    static func create(_ url: URL) throws(InstallError) -> Int32 {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .io(path: url.path, reason: "cannot create: \(String(cString: strerror(errno)))") }
        return descriptor
    }

    static func write(_ descriptor: Int32, _ bytes: ArraySlice<UInt8>, path: String) throws(InstallError) {
        var offset = bytes.startIndex
        while offset < bytes.endIndex {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw .io(path: path, reason: "cannot write: \(String(cString: strerror(errno)))")
            }
            offset += written
        }
    }

    static func createFolder(_ url: URL) throws(InstallError) {
        if mkdir(url.path, 0o755) != 0 && errno != EEXIST {
            throw .io(path: url.path, reason: "cannot create the folder: \(String(cString: strerror(errno)))")
        }
        var info = stat()
        guard lstat(url.path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw .io(path: url.path, reason: "not a folder")
        }
    }
}
