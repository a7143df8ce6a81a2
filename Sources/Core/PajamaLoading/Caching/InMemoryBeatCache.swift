import PajamaJSON
import PajamaModel

/// Beats in memory, least recently used evicted first, bounded by bytes and by count
/// (defaults 50 MB and 100 beats, as in the original app).
///
/// The beats are kept behind a lock the actor's methods share with `resident(_:)`, which answers at once on
/// the caller's thread: the reader answers a move to a beat in memory without a hop to the cooperative pool.
public actor InMemoryBeatCache {
    public let maximumBytes: Int
    public let maximumCount: Int
    private nonisolated let entries: Locked<LRUCache<String, Beat>>

    public init(maximumBytes: Int = 50 * 1024 * 1024, maximumCount: Int = 100) {
        self.maximumBytes = maximumBytes
        self.maximumCount = maximumCount
        entries = Locked(LRUCache(costLimit: maximumBytes, countLimit: maximumCount))
    }

    public var totalBytes: Int { entries.withLock { $0.totalCost } }

    public func get(_ id: String) -> Beat? { entries.withLock { $0.value(for: id) } }

    /// The beat if it is in memory, at once and from any thread; unlike `get` it does not count as a use
    /// (the preloader's loads, which go through `get`, keep the window's beats recent).
    public nonisolated func resident(_ id: String) -> Beat? { entries.withLock { $0.peek(id) } }

    public func contains(_ id: String) -> Bool { entries.withLock { $0.contains(id) } }

    public var count: Int { entries.withLock { $0.count } }

    public func store(_ beat: Beat) {
        let cost = BeatSize.estimate(beat)
        entries.withLock { _ = $0.insert(beat, for: beat.id, cost: cost) }
    }

    public func remove(_ id: String) {
        entries.withLock { _ = $0.removeValue(forKey: id) }
    }

    public func clear() {
        entries.withLock { _ = $0.removeAll() }
    }
}

/// An honest estimate of the memory a beat takes: every string's bytes (inline strings of up to 15
/// bytes cost nothing extra), each array's and dictionary's storage, and an overhead per value, walked
/// through every page, choice and tool argument. Used to bound the memory cache by bytes.
public enum BeatSize {
    static let objectOverhead = 48
    static let stringHeader = 16

    public static func estimate(_ beat: Beat) -> Int {
        var size = objectOverhead + string(beat.id) + (beat.nextBeatId.map(string) ?? 0) + objectOverhead
        for page in beat.pages {
            size += objectOverhead * 2 + string(page.id) + (page.imageUrl.map { string($0.value) } ?? 0)
            switch page.kind {
            case .title(let title, let subtitle): size += string(title) + (subtitle.map(string) ?? 0)
            case .text(let lines): size += objectOverhead + lines.reduce(0) { $0 + stringHeader + string($1) }
            case .choice(let prompt, let choices):
                size += (prompt.map(string) ?? 0) + objectOverhead
                size += choices.reduce(0) {
                    $0 + objectOverhead + string($1.text) + string($1.targetBeatId) + ($1.soundURL.map { string($0.value) } ?? 0)
                }
            case .question(let question):
                size += objectOverhead * 2 + string(question.answerBeatPrefix) + (question.label.map(string) ?? 0)
                    + (question.testAnswer.map(string) ?? 0)
            }
            for tool in page.tools {
                size += objectOverhead + string(tool.name) + json(.object(tool.args.map { ($0.key, $0.value) }))
                if let effect = tool.soundEffect { size += string(effect.soundURL.value) + 8 }
                if let loop = tool.backgroundSound?.path { size += string(loop.value) + 8 }
            }
            for marks in page.marks { size += objectOverhead * 2 + (marks.spans.count * 17 + marks.breaks.count * 8) }
        }
        return size
    }

    /// Heap bytes of a string: none when short enough to be stored inline, else its UTF-8 bytes and a header.
    static func string(_ text: String) -> Int {
        let bytes = text.utf8.count
        return bytes <= 15 ? 0 : bytes + 32
    }

    static func json(_ value: JSON) -> Int {
        switch value {
        case .null, .bool, .int, .double: return 9
        case .string(let text): return stringHeader + string(text)
        case .array(let items): return objectOverhead + items.reduce(0) { $0 + json($1) }
        case .object(let fields): return objectOverhead * 2 + fields.reduce(0) { $0 + stringHeader + string($1.0) + json($1.1) }
        }
    }
}
