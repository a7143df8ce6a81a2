import ArgumentParser
import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaCoReading
import PajamaStorage
import PajamaReader

/// `pajama join <URL> --token T`: follow someone's reading.
struct JoinCommand: PathsCommand, LoggingCommand {
    static let configuration = CommandConfiguration(
        commandName: "join",
        abstract: "Follow a story someone reads with `pajama host`.",
        discussion: """
            The owner turns the pages; your reader shows the same page and plays the same sounds. Quit, help, \
            mute, volume, theme and scrolling are yours. When the owner ends the session you may read on alone.
            """)

    @Argument(help: "The host's URL, as `pajama host` printed it (http://HOST:PORT/).")
    var url: String

    @OptionGroup(title: "The host's token (--token, --token-file or PAJAMA_TOKEN)")
    var token: TokenOptions

    @Option(help: "Your name, as the others see it.")
    var name: String?

    @Option(help: ArgumentHelp("For an https:// host with a self-signed certificate: the fingerprint it printed.", valueName: "HEX"))
    var fingerprint: String?

    @Option(help: ArgumentHelp("For an https:// host whose certificate a private certificate authority signed: that authority's certificate (PEM).",
                               valueName: "FILE"))
    var ca: String?

    @OptionGroup var reading: ReadingOptions
    var logging: LoggingOptions { reading.logging }

    func validate() throws {
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(), scheme == "http" || scheme == "https",
              parsed.host?.isEmpty == false else {
            throw ValidationError("join takes the host's URL, http://HOST:PORT/ (as `pajama host` printed it)")
        }
        if fingerprint != nil, URL(string: url)?.scheme?.lowercased() != "https" {
            throw ValidationError("--fingerprint checks a TLS certificate: the URL starts with https://")
        }
        if ca != nil, URL(string: url)?.scheme?.lowercased() != "https" {
            throw ValidationError("--ca checks a TLS certificate: the URL starts with https://")
        }
        if ca != nil, fingerprint != nil {
            throw ValidationError("--fingerprint pins one certificate and --ca trusts an authority: give one of them")
        }
        guard try token.resolve() != nil else {
            throw ValidationError("join needs the host's token: PAJAMA_TOKEN=T, --token-file FILE or --token T")
        }
    }

    func validate(paths: Paths) throws { try reading.checkTheme(paths: paths) }

    func run(paths: Paths) async throws {
        var base = url
        if !base.hasSuffix("/") { base += "/" }
        let code = await ReaderApp.runFollower(
            URL(string: base)!, token: try token.resolve() ?? "", name: HostCommand.ownerName(name), fingerprint: fingerprint, ca: ca,
            options: reading.reader, paths: paths)
        if code != 0 { throw ExitCode(code) }
    }
}
