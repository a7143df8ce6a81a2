import Foundation

/// Monotonic time in seconds.
func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// CPU time of the calling thread in seconds: what it ran, without the time it waited for a processor
/// (on a shared machine the wall-clock tail is mostly that wait).
func threadCPUSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Runs `body` `iterations` times after `warmup` runs and returns each run's duration in seconds.
func measure(iterations: Int, warmup: Int = 10, _ body: () throws -> Void) rethrows -> [Double] {
    for _ in 0..<warmup { try body() }
    var samples: [Double] = []
    samples.reserveCapacity(iterations)
    for _ in 0..<iterations {
        let start = now()
        try body()
        samples.append(now() - start)
    }
    return samples
}

/// The async version of `measure`.
func measureAsync(iterations: Int, warmup: Int = 10, _ body: () async throws -> Void) async rethrows -> [Double] {
    for _ in 0..<warmup { try await body() }
    var samples: [Double] = []
    samples.reserveCapacity(iterations)
    for _ in 0..<iterations {
        let start = now()
        try await body()
        samples.append(now() - start)
    }
    return samples
}

/// Resident set size of this process in MB (from /proc/self/statm).
func residentMegabytes() -> Double {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return .nan }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Double(fields[1]) else { return .nan }
    return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
}

/// What the table was measured on.
func machineDescription() -> [String: String] {
    var info: [String: String] = [:]
    if let cpu = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
        let line = cpu.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
        let name = line.split(separator: ":", maxSplits: 1).last
    {
        info["cpu"] = name.trimmingCharacters(in: .whitespaces)
    }
    info["cores"] = String(ProcessInfo.processInfo.activeProcessorCount)
    info["memory_gb"] = String(ProcessInfo.processInfo.physicalMemory / 1_073_741_824)
    info["os"] = ProcessInfo.processInfo.operatingSystemVersionString
    info["date"] = ISO8601DateFormatter().string(from: Date())
    return info
}
