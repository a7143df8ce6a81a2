import Foundation

/// Run-time criticality overrides, shared by the content manager (the gate) and its preloader.
final class CriticalityOverrides: @unchecked Sendable {
    // Safe: `levels` is only touched with `lock` held.
    private let lock = NSLock()
    private var levels: [AssetPath: Criticality] = [:]

    func level(for path: AssetPath) -> Criticality? {
        lock.lock()
        defer { lock.unlock() }
        return levels[path]
    }

    func set(_ level: Criticality?, for path: AssetPath) {
        lock.lock()
        levels[path] = level
        lock.unlock()
    }
}
