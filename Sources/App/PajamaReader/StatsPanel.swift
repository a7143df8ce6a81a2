import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaLoading

/// The `--stats` side panel: cache hit rates, the preload window and load times.
enum StatsPanel {
    static func lines(_ content: StoryContentManager) async -> [String] {
        let m = await content.metrics()
        let window = await content.preloadWindow
        func pct(_ t: StorageMetrics.Tier) -> String { t.hits + t.misses == 0 ? "-" : "\(Int(t.hitRate * 100))%" }
        func ms(_ t: StorageMetrics.Tier) -> String { t.hits == 0 ? "-" : cFormat("%.2f ms", t.averageHitSeconds * 1000) }
        return [
            "Stats",
            "memory  \(pct(m.memory)) hit  \(ms(m.memory))",
            "disk    \(pct(m.disk)) hit  \(ms(m.disk))",
            "source  \(m.source.hits) loads  \(ms(m.source))",
            "shared  \(m.sharedLoads) joined loads",
            "requests \(m.sourceRequests)",
            "",
            "preload window (\(window.count)):",
        ] + window.prefix(12).map { "  " + $0 }
    }
}
