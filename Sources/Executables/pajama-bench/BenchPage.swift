import Foundation

/// The page `make bench` writes (`--table FILE`, docs/performance-table.md): the machine, the date and the
/// run's table, whole, so the page is always one run's figures.
enum BenchPage {
    static func markdown(_ rows: [BenchRow], machine: [String: String], skipped: [String], command: String) -> String {
        #if DEBUG
        let build = "debug (not for quoting)"
        #else
        let build = "release"
        #endif
        var page = """
            # The latest table

            Written by `make bench` (`\(command)`); do not edit by hand. How to read it:
            [performance.md](performance.md); what changed between runs: [performance-journal.md](performance-journal.md).

            Measured \(machine["date"] ?? "") on \(machine["cpu"] ?? "?"), \(machine["cores"] ?? "?") cores, \
            \(machine["memory_gb"] ?? "?") GB, \(build) build.

            ```
            \(BenchTable.text(rows))
            ```

            """
        if !skipped.isEmpty { page += "\n" + skipped.map { "- \($0)" }.joined(separator: "\n") + "\n" }
        return page
    }

    /// Writes the page atomically (a half-written page is never left behind by an interrupted run).
    static func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}
