import ArgumentParser
import PajamaStorage

/// A command that reads or writes Pajama's files: `Pajama.main` runs it with the `Paths` it built once.
protocol PathsCommand: AsyncParsableCommand {
    /// Checks that need the folders (a theme's name), before `run(paths:)`; a `ValidationError` is
    /// reported with the command's usage, as if thrown while parsing.
    func validate(paths: Paths) throws
    func run(paths: Paths) async throws
}

extension PathsCommand {
    func validate(paths: Paths) throws {}

    /// Only `Pajama.main` runs commands, always through `run(paths:)`; this satisfies ArgumentParser.
    func run() async throws {
        throw ValidationError("\(Self.configuration.commandName ?? "this command") must be run by `pajama`")
    }
}
