/// Beats in memory, least recently used evicted first, bounded by bytes and by count
/// (defaults 50 MB and 100 beats, as in the original app).
public actor InMemoryBeatCache {
    public let maximumBytes: Int
    public let maximumCount: Int
    private var entries: [String: (beat: Beat, size: Int, used: UInt64)] = [:]
    private var clock: UInt64 = 0
    public private(set) var totalBytes = 0

    public init(maximumBytes: Int = 50 * 1024 * 1024, maximumCount: Int = 100) {
        self.maximumBytes = maximumBytes
        self.maximumCount = maximumCount
    }

    public func get(_ id: String) -> Beat? {
        guard var entry = entries[id] else { return nil }
        clock += 1
        entry.used = clock
        entries[id] = entry
        return entry.beat
    }

    public func contains(_ id: String) -> Bool { entries[id] != nil }

    public var count: Int { entries.count }

    public func store(_ beat: Beat) {
        let size = BeatSize.estimate(beat)
        if let old = entries[beat.id] { totalBytes -= old.size }
        clock += 1
        entries[beat.id] = (beat, size, clock)
        totalBytes += size
        while (totalBytes > maximumBytes || entries.count > maximumCount), entries.count > 1 {
            guard let oldest = entries.min(by: { $0.value.used < $1.value.used })?.key else { break }
            totalBytes -= entries[oldest]?.size ?? 0
            entries[oldest] = nil
        }
    }

    public func remove(_ id: String) {
        if let old = entries.removeValue(forKey: id) { totalBytes -= old.size }
    }

    public func clear() {
        entries = [:]
        totalBytes = 0
    }
}

/// An honest estimate of the memory a beat takes: every string's bytes plus per-object overhead.
public enum BeatSize {
    static let objectOverhead = 48

    public static func estimate(_ beat: Beat) -> Int {
        var size = objectOverhead + beat.id.utf8.count + (beat.nextBeatId?.utf8.count ?? 0)
        for page in beat.pages {
            size += objectOverhead * 2 + page.id.utf8.count + (page.imageUrl?.value.utf8.count ?? 0)
            switch page.kind {
            case .title(let title, let subtitle): size += title.utf8.count + (subtitle?.utf8.count ?? 0)
            case .text(let lines): size += lines.reduce(0) { $0 + $1.utf8.count + 16 }
            case .choice(let prompt, let choices):
                size += (prompt?.utf8.count ?? 0)
                size += choices.reduce(0) { $0 + objectOverhead + $1.text.utf8.count + $1.targetBeatId.utf8.count + ($1.soundURL?.value.utf8.count ?? 0) }
            }
            for tool in page.tools { size += objectOverhead + tool.name.utf8.count + tool.args.count * 64 }
        }
        return size
    }
}
