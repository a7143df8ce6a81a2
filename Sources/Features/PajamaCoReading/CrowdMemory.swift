import PajamaModel
#if canImport(Glibc)
import Glibc
#endif

/// Gives the memory a crowd of followers used back to the system once the crowd has left (issue 42,
/// item 7). What a crowd allocates is freed when it leaves, but glibc's malloc keeps the freed pages of its
/// arenas (one per thread that allocates): the host's RSS went 45 -> 160 -> 178 -> 186 MB over rounds of
/// joins while the memory in use stayed about 6 MB (docs/security.md, "Memory over many joins"). After a
/// crowd (at least `threshold` sockets open), `release` is called (`malloc_trim`, which hands the free
/// pages back) when the sockets open have fallen to a quarter of the most seen, and again when none is
/// left.
final class CrowdMemory: Sendable {
    private enum State {
        /// Fewer sockets than `threshold` since the last release.
        case quiet
        /// A crowd: the most sockets seen since it began.
        case crowded(highWater: Int)
        /// The crowd fell to a quarter (released once); released again when none is left.
        case thinned
    }

    let threshold: Int
    private let state = Locked(State.quiet)
    private let release: @Sendable () -> Void

    init(threshold: Int = 128, release: @escaping @Sendable () -> Void = CrowdMemory.trimSoon) {
        self.threshold = threshold
        self.release = release
    }

    /// The number of sockets open changed to `open`.
    func changed(open: Int) {
        let left = state.withLock { state -> Bool in
            switch state {
            case .quiet:
                if open >= threshold { state = .crowded(highWater: open) }
                return false
            case .crowded(let highWater):
                if open > highWater { state = .crowded(highWater: open) }
                guard open <= highWater / 4 else { return false }
                state = open == 0 ? .quiet : .thinned
                return true
            case .thinned:
                if open >= threshold { state = .crowded(highWater: open) }
                guard open == 0 else { return false }
                state = .quiet
                return true
            }
        }
        if left { release() }
    }

    /// `trimMalloc` in a second: the last sockets' channels and buffers are freed after their handlers
    /// return, which is when the count falls (trimmed at once, 8 rounds of 2,000 joins left 77 to 134 MB).
    static let trimSoon: @Sendable () -> Void = {
        Task.detached {
            try? await Task.sleep(for: .seconds(1))
            trimMalloc()
        }
    }

    /// glibc's `malloc_trim(0)`: the free pages of every arena returned to the system (a few milliseconds for
    /// a hundred megabytes); nothing where the C library has no such function.
    static let trimMalloc: @Sendable () -> Void = { _ = mallocTrim?(0) }

    /// glibc's `malloc_trim`, which Swift's Glibc module does not declare: looked up once by name.
    static let mallocTrim: (@convention(c) (Int) -> Int32)? = {
        #if canImport(Glibc)
        guard let symbol = dlsym(nil, "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
        #else
        return nil
        #endif
    }()
}
