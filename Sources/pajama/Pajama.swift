import ArgumentParser
import Foundation
import PajamaCore

/// `pajama`: read branching, illustrated, sound-enabled stories in the terminal.
@main
struct Pajama: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pajama",
        abstract: "A terminal reader for branching, illustrated, sound-enabled stories.",
        version: "pajama \(PajamaVersion.current)",
        subcommands: [LibraryCommand.self, ReadCommand.self, ListCommand.self, ValidateCommand.self, DoctorCommand.self],
        defaultSubcommand: LibraryCommand.self
    )

    /// Refuses a mistyped command before the default command (the library) takes it for a folder, builds
    /// the one `Paths` of this run from the environment, and runs the command with it.
    static func main() async {
        let commands = configuration.subcommands.compactMap { $0.configuration.commandName }
        if let problem = UnknownCommand.problem(in: Array(CommandLine.arguments.dropFirst()), commands: commands) {
            exit(withError: ValidationError(problem))
        }
        let paths = Paths(environment: ProcessInfo.processInfo.environment)
        do {
            var command = try await asyncParseAsRoot()
            if let command = command as? any PathsCommand {
                try await command.run(paths: paths)
            } else if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}
