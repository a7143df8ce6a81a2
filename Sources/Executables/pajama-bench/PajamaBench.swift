import ArgumentParser
import Foundation

/// `pajama-bench`: runs named scenarios and prints one table (median, p95, p99, min, max, ratio against
/// the baseline measured in the same run). See docs/performance.md.
@main
struct PajamaBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pajama-bench",
        abstract: "Measure Pajama: beat loads, preloading, page turns, start-up, memory and sound."
    )

    @Argument(help: "Scenarios to run (default: all). Use --list to see them.")
    var scenarios: [String] = []

    @Flag(help: "List the scenarios and exit.")
    var list = false

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    @Option(help: "Also write the run's table as a Markdown page to this file (make bench: docs/performance-table.md).")
    var table: String?

    @Flag(help: "A fast smoke run with fewer iterations (figures are not for quoting).")
    var quick = false

    @Option(help: "Latency in milliseconds the preload scenario's HTTP server adds to every response.")
    var latency = 80

    @Option(help: .hidden)
    var saveProgressForever: String?

    @Option(help: .hidden)
    var hostOnly: String?

    @Option(help: .hidden)
    var hostHeaderTimeoutMs = 10_000

    @Option(help: .hidden)
    var hostMaxFollowers = 256

    @Option(help: .hidden)
    var crowd: String?

    @Option(help: .hidden)
    var crowdSize = 2000

    @Flag(help: .hidden)
    var crowdFrames = false

    @Option(help: .hidden)
    var follow: String?

    static var all: [any Scenario] { Scenarios.all }

    func run() async throws {
        if let folder = saveProgressForever { ProgressSaveLoop.run(folder: folder) }
        if let folder = hostOnly { await HostOnlyChild.run(folder: folder, headerTimeout: .milliseconds(hostHeaderTimeoutMs), followerCap: hostMaxFollowers) }
        if let url = crowd.flatMap(URL.init(string:)), crowdFrames { FrameCrowd.run(url: url, followers: crowdSize) }
        if let url = crowd.flatMap(URL.init(string:)) { await CrowdChild.run(url: url, followers: crowdSize) }
        if let url = follow.flatMap(URL.init(string:)) { await CrowdChild.follow(url: url) }
        if list {
            for scenario in Self.all { print("\(scenario.name.padded(12)) \(scenario.summary)") }
            return
        }
        let chosen = scenarios.isEmpty ? Self.all : try scenarios.map { name in
            guard let s = Self.all.first(where: { $0.name == name }) else {
                throw ValidationError("unknown scenario \(name); try --list")
            }
            return s
        }
        var options = BenchOptions()
        options.scale = quick ? 0.2 : 1
        options.latencyMilliseconds = latency
        var rows: [BenchRow] = []
        var skipped: [String] = []
        for scenario in chosen {
            FileHandle.standardError.write(Data("running \(scenario.name)...\n".utf8))
            do {
                rows += try await scenario.run(options)
            } catch let skip as Skip {
                skipped.append("\(scenario.name): skipped: \(skip.reason)")
            } catch {
                skipped.append("\(scenario.name): failed: \(error)")
            }
        }
        if let table {
            let command = "pajama-bench " + CommandLine.arguments.dropFirst().joined(separator: " ")
            try BenchPage.write(BenchPage.markdown(rows, machine: machineDescription(), skipped: skipped, command: command), to: table)
        }
        if json {
            print(BenchTable.json(rows, machine: machineDescription()))
        } else {
            let machine = machineDescription()
            print("machine: \(machine["cpu"] ?? "?"), \(machine["cores"] ?? "?") cores, \(machine["memory_gb"] ?? "?") GB; \(machine["date"] ?? "")")
            print(BenchTable.text(rows))
            for line in skipped { print(line) }
        }
    }
}
