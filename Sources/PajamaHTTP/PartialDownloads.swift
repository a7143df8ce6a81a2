import Synchronization

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

    private struct State {
        var parts: [String: Part] = [:]
        var order: [String] = []
        var size = 0
    }

    private let state = Mutex(State())
    let budget: Int

    init(budget: Int = 64 << 20) {
        self.budget = budget
    }

    /// Removes and returns the part kept for `path`.
    func take(_ path: String) -> Part? {
        state.withLock { state in
            guard let part = state.parts.removeValue(forKey: path) else { return nil }
            state.order.removeAll { $0 == path }
            state.size -= part.bytes.count
            return part
        }
    }

    /// Keeps `part` for `path` (replacing an older one), within the budget.
    func keep(_ part: Part, for path: String) {
        guard !part.bytes.isEmpty, part.bytes.count <= budget else { return }
        state.withLock { state in
            if let old = state.parts.removeValue(forKey: path) {
                state.order.removeAll { $0 == path }
                state.size -= old.bytes.count
            }
            while state.size + part.bytes.count > budget, !state.order.isEmpty {
                let oldest = state.order.removeFirst()
                state.size -= state.parts.removeValue(forKey: oldest)?.bytes.count ?? 0
            }
            state.parts[path] = part
            state.order.append(path)
            state.size += part.bytes.count
        }
    }
}
