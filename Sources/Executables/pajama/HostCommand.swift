import ArgumentParser
import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaCoReading
import PajamaStorage
import PajamaReader

/// `pajama host <folder|URL>`: read a story and let others follow it from their own terminals.
struct HostCommand: PathsCommand, LoggingCommand {
    static let configuration = CommandConfiguration(
        commandName: "host",
        abstract: "Read a story while others follow along (`pajama join`).",
        discussion: """
            Serves the story folder (read-only) and the co-reading session on one port; a story given by URL \
            is read by followers from that URL, and the host serves only the session. Every request needs the \
            token. The join command is printed on standard error before the reader starts.
            """)

    @Argument(help: "The story folder, its base URL (http:// or https://), an ink or Twine story file, or the id of a story `pajama list` shows.")
    var story: String

    @Option(help: "The address to listen on. Anything but loopback lets other machines join: say so here.")
    var bind = "127.0.0.1"

    @Option(help: "The port to listen on (0: any free port).")
    var port = 7777

    @OptionGroup(title: "Token (default: a random 128-bit one; at least 16 characters)")
    var token: TokenOptions

    @Option(help: "How many followers at once (one more is told \"the session is full\").")
    var maxFollowers = HostLimits().followerCap

    @Option(help: "Your name, as followers see it.")
    var name: String?

    @Option(help: ArgumentHelp("Serve over TLS with this certificate (PEM; with --tls-key).", valueName: "FILE"))
    var tlsCert: String?

    @Option(help: ArgumentHelp("The TLS certificate's private key (PEM).", valueName: "FILE"))
    var tlsKey: String?

    @Flag(help: "Serve over TLS with a certificate made for this session; its fingerprint is printed with the join line.")
    var tlsSelfSigned = false

    @Flag(help: "Serve the --tls-cert certificate even when it has expired or is not yet valid (with a warning; `pajama join` refuses it).")
    var allowExpired = false

    @Option(help: ArgumentHelp(
        "Publish the session to a relay node (`pajama relay`): followers join there. The relay's secret comes from PAJAMA_RELAY_SECRET; the token must be the relay's --token-file.",
        valueName: "URL"))
    var relay: String?

    @Flag(help: "Let followers vote on your choices with their number keys: you see the votes beside each choice and take any, or the leading one with g.")
    var votes = false

    @OptionGroup var reading: ReadingOptions
    var logging: LoggingOptions { reading.logging }

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port takes 0...65535") }
        _ = try token.resolve()
        guard maxFollowers >= 1 else { throw ValidationError("--max-followers takes 1 or more") }
        if tlsSelfSigned, tlsCert != nil || tlsKey != nil {
            throw ValidationError("--tls-self-signed makes its own certificate: give it alone, or --tls-cert and --tls-key")
        }
        if (tlsCert == nil) != (tlsKey == nil) { throw ValidationError("--tls-cert and --tls-key go together") }
        if allowExpired, tlsCert == nil { throw ValidationError("--allow-expired is for a certificate given with --tls-cert") }
        guard !bind.isEmpty else { throw ValidationError("--bind takes an address (127.0.0.1, ::1, 0.0.0.0...)") }
        _ = try relayTarget()
    }

    /// The relay to publish to (`--relay`), with the owner's secret from the environment; nil without `--relay`.
    func relayTarget(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> RelayPublisher.Target? {
        guard let relay else { return nil }
        guard let url = URL(string: relay), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              url.host?.isEmpty == false else {
            throw ValidationError("--relay takes the relay node's URL, http://HOST:PORT/ (what `pajama relay` printed)")
        }
        let variable = RelayConfiguration.secretVariable
        guard let secret = environment[variable], !secret.isEmpty else {
            throw ValidationError("--relay needs the relay's secret in \(variable) (`pajama relay` printed it, or read its --secret-file)")
        }
        if let problem = RelayConfiguration.problem(with: secret, named: variable) { throw ValidationError(problem) }
        // The node asks this host for the story's files with the followers' token, so both have the same one.
        guard let token = try token.resolve(environment: environment) else {
            throw ValidationError("--relay needs the relay's token: --token-file FILE (the relay's --token-file) or PAJAMA_TOKEN")
        }
        if let problem = RelayConfiguration.problem(with: token, named: "the token") { throw ValidationError(problem) }
        return RelayPublisher.Target(url: url, secret: secret)
    }

    func validate(paths: Paths) throws { try reading.checkTheme(paths: paths) }

    func run(paths: Paths) async throws {
        guard let story = StoryArgument.open(story, paths: paths) else { throw ExitCode(2) }
        var limits = HostLimits()
        limits.followerCap = maxFollowers
        var tls: HostTLS?
        if tlsSelfSigned { tls = .selfSigned }
        if let tlsCert, let tlsKey { tls = .files(certificate: tlsCert, key: tlsKey, allowExpired: allowExpired) }
        let code = await ReaderApp.runHost(
            story, configuration: CoReadingHost.Configuration(bind: bind, port: port, ownerName: Self.ownerName(name), limits: limits, tls: tls,
                                                       relay: try relayTarget(), votes: votes),
            token: try token.resolve(), options: reading.reader, paths: paths)
        if code != 0 { throw ExitCode(code) }
    }

    /// `--name`, else the login name, else "host".
    static func ownerName(_ given: String?) -> String {
        if let given, !given.isEmpty { return given }
        let user = ProcessInfo.processInfo.environment["USER"] ?? ""
        return user.isEmpty ? "host" : user
    }
}
