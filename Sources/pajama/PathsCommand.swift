import ArgumentParser
import PajamaCore

/// A command that reads or writes Pajama's files: `Pajama.main` runs it with the `Paths` it built once.
protocol PathsCommand: AsyncParsableCommand {
    func run(paths: Paths) async throws
}

extension PathsCommand {
    /// Only `Pajama.main` runs commands, always through `run(paths:)`; this satisfies ArgumentParser.
    func run() async throws {
        throw ValidationError("\(Self.configuration.commandName ?? "this command") must be run by `pajama`")
    }
}
