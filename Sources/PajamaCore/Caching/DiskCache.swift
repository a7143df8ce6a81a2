import Foundation

/// Files from remote stories kept on disk, under `$XDG_CACHE_HOME/pajama` (default ~/.cache/pajama).
///
/// Keyed by story id + story version + path, so a new version never sees old entries. Each entry has a
/// header with its length and a 64-bit FNV-1a checksum of the payload (fast, and enough to catch
/// truncation and bit rot; this is not a defence against an attacker who can write the cache). A
/// corrupt entry is deleted and reported as a miss. Writes are atomic (temp file + rename). The size
/// is capped; the least recently modified entries go first.
public actor DiskCache {
    public let root: URL
    public let maximumBytes: Int
    private static let magic: [UInt8] = Array("PJC1".utf8)
    public private(set) var corruptEntriesRemoved = 0

    public init(root: URL, maximumBytes: Int = 256 * 1024 * 1024) {
        self.root = root
        self.maximumBytes = maximumBytes
    }

    /// `$XDG_CACHE_HOME/pajama`, or `~/.cache/pajama`.
    public static func standardRoot(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let base = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent(".cache")
        return base.appendingPathComponent("pajama")
    }

    private func folder(storyId: String) -> URL { root.appendingPathComponent(storyId) }

    private func file(storyId: String, version: String?, path: String) -> URL {
        let key = "\(version ?? "")\u{0}\(path)"
        return folder(storyId: storyId).appendingPathComponent(String(FNV1a.hash(Array(key.utf8)), radix: 16))
    }

    /// The cached bytes, or nil (missing or corrupt: a corrupt entry is deleted).
    public func get(storyId: String, version: String?, path: String) -> [UInt8]? {
        let url = file(storyId: storyId, version: version, path: path)
        guard let data = try? Data(contentsOf: url) else { return nil }
        let bytes = [UInt8](data)
        guard bytes.count >= 20, Array(bytes[0..<4]) == Self.magic else { return corrupt(url) }
        let length = bytes[4..<12].enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
        let checksum = bytes[12..<20].enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
        let payload = Array(bytes[20...])
        guard UInt64(payload.count) == length, FNV1a.hash(payload) == checksum else { return corrupt(url) }
        return payload
    }

    private func corrupt(_ url: URL) -> [UInt8]? {
        try? FileManager.default.removeItem(at: url)
        corruptEntriesRemoved += 1
        return nil
    }

    /// Stores bytes atomically, then trims the cache to its size cap.
    public func store(storyId: String, version: String?, path: String, bytes: [UInt8]) {
        let url = file(storyId: storyId, version: version, path: path)
        var data = Self.magic
        withUnsafeBytes(of: UInt64(bytes.count).littleEndian) { data += $0 }
        withUnsafeBytes(of: FNV1a.hash(bytes).littleEndian) { data += $0 }
        data += bytes
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            let temp = url.appendingPathExtension("tmp\(ProcessInfo.processInfo.processIdentifier)")
            try Data(data).write(to: temp)
            guard rename(temp.path, url.path) == 0 else { return }
        } catch {
            return
        }
        trim()
    }

    /// Removes every entry of a story.
    public func clear(storyId: String) {
        try? FileManager.default.removeItem(at: folder(storyId: storyId))
    }

    private func trim() {
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey]
        guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: keys) else { return }
        var files: [(URL, Int, Date)] = []
        var total = 0
        for case let url as URL in enumerator {
            guard let values = try? url.resourceValues(forKeys: Set(keys)), let size = values.fileSize else { continue }
            files.append((url, size, values.contentModificationDate ?? .distantPast))
            total += size
        }
        guard total > maximumBytes else { return }
        for (url, size, _) in files.sorted(by: { $0.2 < $1.2 }) {
            try? FileManager.default.removeItem(at: url)
            total -= size
            if total <= maximumBytes { break }
        }
    }
}

/// 64-bit FNV-1a.
enum FNV1a {
    static func hash(_ bytes: [UInt8]) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes {
            h ^= UInt64(b)
            h = h &* 0x100_0000_01b3
        }
        return h
    }
}
