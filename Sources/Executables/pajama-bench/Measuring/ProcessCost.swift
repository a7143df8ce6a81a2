import CAllocCount
import Foundation

/// What the process (and the children it waited for) has spent so far: CPU time and heap allocations.
/// The difference of two readings is the cost of what ran between them, on every thread.
struct ProcessCost {
    /// User + system CPU seconds of this process, every thread.
    var cpu: Double
    /// User + system CPU seconds of the children already waited for.
    var childrenCPU: Double
    /// Heap allocations so far (0 when counting is off: see `countsAllocations`).
    var allocations: UInt64

    static func now() -> ProcessCost {
        ProcessCost(cpu: seconds(RUSAGE_SELF.rawValue), childrenCPU: seconds(RUSAGE_CHILDREN.rawValue), allocations: pajama_alloc_count())
    }

    /// False in a sanitizer build: its runtime owns malloc, nothing is counted.
    static var countsAllocations: Bool { pajama_alloc_counting() != 0 }

    static func - (after: ProcessCost, before: ProcessCost) -> ProcessCost {
        ProcessCost(cpu: after.cpu - before.cpu, childrenCPU: after.childrenCPU - before.childrenCPU,
                    allocations: after.allocations &- before.allocations)
    }

    private static func seconds(_ who: Int32) -> Double {
        var usage = rusage()
        getrusage(who, &usage)
        func value(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return value(usage.ru_utime) + value(usage.ru_stime)
    }
}
