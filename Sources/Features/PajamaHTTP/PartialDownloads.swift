import PajamaLoading
import PajamaModel

/// The first part of files whose download was cut, kept so the next read asks only for the rest
/// (`Range`), and only of the same version of the file (`If-Range` with its ETag or Last-Modified).
///
/// Only identity-encoded bodies are kept (a part of a gzip stream cannot be continued by a new
/// decompressor). At most `budget` bytes in all: the oldest parts go first.
final class PartialDownloads: Sendable {
    struct Part: Sendable {
        var bytes: [UInt8]
        /// The ETag, else the Last-Modified date, of the version the bytes belong to.
        var validator: String
        /// The whole file's size.
        var total: Int
    }

    /// Parts in the order they were kept (a part is only ever kept or taken, never read in place, so the
    /// least recently used is the oldest).
    private let parts: Locked<LRUCache<String, Part>>
    let budget: Int

    init(budget: Int = 64 << 20) {
        self.budget = budget
        parts = Locked(LRUCache(costLimit: budget))
    }

    /// Removes and returns the part kept for `path`.
    func take(_ path: String) -> Part? {
        parts.withLock { $0.removeValue(forKey: path) }
    }

    /// Keeps `part` for `path` (replacing an older one), within the budget.
    func keep(_ part: Part, for path: String) {
        guard !part.bytes.isEmpty, part.bytes.count <= budget else { return }
        parts.withLock { _ = $0.insert(part, for: path, cost: part.bytes.count) }
    }
}
