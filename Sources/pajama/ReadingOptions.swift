import ArgumentParser

/// Options shared by `read` and the library.
struct ReadingOptions: ParsableArguments {
    @Option(help: "Colour theme (default, night, paper, mono, or one of yours).")
    var theme: String?

    @Flag(help: "Read without sound.")
    var noSound = false

    @Flag(help: "Show cache hit rates, the preload window and load times in a side panel.")
    var stats = false
}
