/// Where the reader's messages to its user go (`ReaderApp.printError`: why a story cannot be opened, the
/// join command, a bookmark that does not exist...): standard error, unless the task that runs the reading
/// collects them (a test or the bench: `ReaderMessages.$collector.withValue(...)`), each message a line.
public enum ReaderMessages {
    @TaskLocal public static var collector: (@Sendable (String) -> Void)?
}
