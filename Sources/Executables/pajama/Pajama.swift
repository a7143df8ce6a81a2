import ArgumentParser
import FoundationEssentials
import Glibc
import PajamaBasics
import Logging
import PajamaModel
import PajamaStorage

/// `pajama`: read branching, illustrated, sound-enabled stories in the terminal.
@main
struct Pajama: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pajama",
        abstract: "A terminal reader for branching, illustrated, sound-enabled stories.",
        version: "pajama \(PajamaVersion.current)",
        subcommands: [
            LibraryCommand.self, ReadCommand.self, HostCommand.self, JoinCommand.self, RelayCommand.self, ListCommand.self, ValidateCommand.self,
            PlayCommand.self, TestCommand.self, DoctorCommand.self, InstallStoryCommand.self, UninstallStoryCommand.self,
        ],
        defaultSubcommand: LibraryCommand.self
    )

    /// Refuses a mistyped command before the default command (the library) takes it for a folder, builds
    /// the one `Paths` of this run from the environment, sends the log to `paths.logFile`, and runs the
    /// command with them.
    static func main() async {
        let commands = configuration.subcommands.compactMap { $0.configuration.commandName }
        if let problem = UnknownCommand.problem(in: Array(CommandLine.arguments.dropFirst()), commands: commands) {
            exit(withError: ValidationError(problem))
        }
        let paths = Paths(environment: ProcessInfo.processInfo.environment)
        var command: any ParsableCommand
        do {
            command = try await asyncParseAsRoot()
        } catch {
            exit(withError: error)
        }
        // Every command logs to the one file; the reading commands at the level they were given.
        PajamaLog.bootstrap(file: paths.logFile, level: logLevel(of: command))
        do {
            if let command = command as? any PathsCommand {
                try command.validate(paths: paths)
                try await command.run(paths: paths)
            } else if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch let problem as ValidationError where command is any PathsCommand {
            exitWithUsage(problem, of: type(of: command))
        } catch {
            exit(withError: error)
        }
    }

    /// The level `--log-level` chose, or the default for a command without the option.
    private nonisolated static func logLevel(of command: any ParsableCommand) -> Logger.Level {
        (command as? any LoggingCommand)?.logging.logLevel.level ?? PajamaLog.defaultLevel
    }

    /// A check made with `paths` (after parsing) reads like one made while parsing: the message, then
    /// the subcommand's usage, and exit status 64.
    private static func exitWithUsage(_ problem: ValidationError, of subcommand: any ParsableCommand.Type) -> Never {
        let name = [configuration.commandName, subcommand.configuration.commandName].compactMap { $0 }.joined(separator: " ")
        StandardError.write("""
            Error: \(problem.message)
            Usage: \(usageString(for: subcommand))
              See '\(name) --help' for more information.

            """)
        Glibc.exit(ExitCode.validationFailure.rawValue)
    }
}
