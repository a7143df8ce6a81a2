import FoundationEssentials
import Glibc
import Logging
import PajamaBasics
import PajamaModel
import PajamaStorage

/// Files from remote stories kept on disk, under `root` (`Paths.cache`).
///
/// Keyed by story id + story version + path, so a new version never sees old entries. Each entry has a
/// header with its length and a 64-bit FNV-1a checksum of its key and payload (fast, and enough to
/// catch truncation, bit rot and two keys hashing to one file name; this is not a defence against an
/// attacker who can write the cache). A corrupt entry is deleted and reported as a miss. Writes are
/// atomic (temp file + rename; a failed write leaves no temp file). The size is capped: the least
/// recently used entries go first (a hit refreshes an entry's time).
public actor DiskCache {
    public let root: URL
    public let maximumBytes: Int
    private static let magic: [UInt8] = Array("PJC2".utf8)
    public private(set) var corruptEntriesRemoved = 0
    /// Bytes on disk under `root`, measured once on the first store, then kept up to date.
    private var knownBytes: Int?

    public init(root: URL, maximumBytes: Int = 256 * 1024 * 1024) {
        self.root = root
        self.maximumBytes = maximumBytes
    }

    private func folder(storyId: String) -> URL { root.appendingPathComponent(storyId) }

    private static func key(version: String?, path: String) -> [UInt8] { Array("\(version ?? "")\u{0}\(path)".utf8) }

    private func file(storyId: String, version: String?, path: String) -> URL {
        folder(storyId: storyId).appendingPathComponent(String(FNV1a.hash(Self.key(version: version, path: path)), radix: 16))
    }

    /// The cached bytes, or nil (missing or corrupt: a corrupt entry is deleted).
    public func get(storyId: String, version: String?, path: String) -> [UInt8]? {
        let url = file(storyId: storyId, version: version, path: path)
        // Whatever is there: a pipe or a folder is corrupt (never waited on), an entry is never read
        // past the cache's own cap.
        let bytes: [UInt8]
        switch RegularFile.read(url.path, limit: maximumBytes + 20) {
        case .missing: return nil
        case .unusable: return corrupt(url)
        case .bytes(let read): bytes = read
        }
        guard bytes.count >= 20, Array(bytes[0..<4]) == Self.magic else { return corrupt(url) }
        let length = bytes[4..<12].enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
        let checksum = bytes[12..<20].enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
        let payload = Array(bytes[20...])
        guard UInt64(payload.count) == length, FNV1a.hash(Self.key(version: version, path: path) + payload) == checksum else {
            return corrupt(url)
        }
        utimes(url.path, nil)  // a hit makes the entry the most recently used
        return payload
    }

    private func corrupt(_ url: URL) -> [UInt8]? {
        if let size = fileSize(atPath: url.path) { knownBytes? -= size }
        PajamaLog.cache.notice("corrupt cache entry removed", metadata: ["file": "\(url.path)"])
        remove(url)
        corruptEntriesRemoved += 1
        return nil
    }

    /// Removes a file of the cache; a failure is logged (the entry stays and is checked again when read).
    private func remove(_ url: URL) {
        do {
            try FileManager.default.removeItem(at: url)
        } catch {
            guard FileManager.default.fileExists(atPath: url.path) else { return }
            PajamaLog.cache.warning("cannot remove a cache entry", metadata: ["file": "\(url.path)", "reason": "\(errorText(error))"])
        }
    }

    /// Stores bytes atomically, then trims the cache to its size cap.
    public func store(storyId: String, version: String?, path: String, bytes: [UInt8]) {
        let url = file(storyId: storyId, version: version, path: path)
        var data = Self.magic
        withUnsafeBytes(of: UInt64(bytes.count).littleEndian) { data += $0 }
        withUnsafeBytes(of: FNV1a.hash(Self.key(version: version, path: path) + bytes).littleEndian) { data += $0 }
        data += bytes
        if knownBytes == nil { knownBytes = measure() }
        let replaced = fileSize(atPath: url.path) ?? 0
        let temp = url.appendingPathExtension("tmp\(ProcessInfo.processInfo.processIdentifier)")
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(data).write(to: temp)
        } catch {
            // Not cached: the file is fetched again next time.
            PajamaLog.cache.warning("cannot cache \(path)", metadata: ["story": "\(storyId)", "reason": "\(errorText(error))"])
            unlink(temp.path)
            return
        }
        guard rename(temp.path, url.path) == 0 else {
            PajamaLog.cache.warning("cannot cache \(path)", metadata: ["story": "\(storyId)", "reason": "\(String(cString: strerror(errno)))"])
            unlink(temp.path)
            return
        }
        knownBytes = (knownBytes ?? 0) - replaced + data.count
        if let total = knownBytes, total > maximumBytes { trim() }
    }

    /// Bytes on disk under `root` now (what the cap is checked against).
    public func totalBytes() -> Int {
        if knownBytes == nil { knownBytes = measure() }
        return knownBytes ?? 0
    }

    /// Every regular file below the root, with its size and when it was last used (its modification time,
    /// which a hit renews); links are not followed.
    private func entries() -> [(url: URL, size: Int, used: Date)] {
        var files: [(URL, Int, Date)] = []
        func walk(_ folder: URL) {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
            for name in names {
                let url = folder.appendingPathComponent(name)
                var info = stat()
                guard lstat(url.path, &info) == 0 else { continue }
                switch info.st_mode & S_IFMT {
                case S_IFDIR: walk(url)
                case S_IFREG:
                    let used = Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1_000_000_000)
                    files.append((url, Int(info.st_size), used))
                default: continue
                }
            }
        }
        walk(root)
        return files
    }

    private func measure() -> Int { entries().reduce(0) { $0 + $1.size } }

    /// Removes every entry of a story.
    public func clear(storyId: String) {
        remove(folder(storyId: storyId))
        knownBytes = nil
    }

    /// Removes the least recently used entries until the cache is within its cap.
    private func trim() {
        let files = entries()
        var total = files.reduce(0) { $0 + $1.size }
        for file in files.sorted(by: { $0.used < $1.used }) where total > maximumBytes {
            remove(file.url)
            total -= file.size
        }
        knownBytes = total
    }
}
