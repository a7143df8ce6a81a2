import Foundation

/// What this process holds now, as the kernel counts it: its resident memory and its open descriptors
/// (a test's measure of a host running in the test process).
public enum ProcessResources {
    /// Resident set size in bytes (/proc/self/statm); 0 if it cannot be read.
    public static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// How many of this process's open descriptors are the file at `path` (links resolved).
    public static func descriptors(on path: String) -> Int {
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return 0 }
        return names.filter { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) == target }.count
    }
}
