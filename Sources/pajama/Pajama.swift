import ArgumentParser

/// `pajama`: read branching, illustrated, sound-enabled stories in the terminal.
@main
struct Pajama: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pajama",
        abstract: "A terminal reader for branching, illustrated, sound-enabled stories.",
        subcommands: [LibraryCommand.self, ReadCommand.self, ListCommand.self, ValidateCommand.self, DoctorCommand.self],
        defaultSubcommand: LibraryCommand.self
    )
}
