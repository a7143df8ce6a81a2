import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaModel

/// Run-time criticality overrides, shared by the content manager (the gate) and its preloader.
final class CriticalityOverrides: Sendable {
    private let levels = Locked<[AssetPath: Criticality]>([:])

    func level(for path: AssetPath) -> Criticality? {
        levels.withLock { $0[path] }
    }

    func set(_ level: Criticality?, for path: AssetPath) {
        levels.withLock { $0[path] = level }
    }
}
