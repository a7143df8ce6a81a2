import ArgumentParser
import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaCoReading
import PajamaStorage
import PajamaReader
import PajamaTerminal

/// `pajama relay --port P --token-file F`: a relay node for co-reading (docs/coreading.md, "Relays"): Debian's
/// nginx with nchan, configured by Pajama and run as this process's child until Ctrl-C or SIGTERM.
struct RelayCommand: PathsCommand {
    static let configuration = CommandConfiguration(
        commandName: "relay",
        abstract: "Run a relay node (nginx + nchan) that carries a co-reading session to many followers.",
        discussion: """
            The owner publishes each change once (`pajama host STORY --relay URL`); the node carries it to every \
            follower (`pajama join URL`), and with --redis to the followers of every node sharing that Redis. The \
            story's files come from the owner's host (--origin) through the node's cache, once per node. Every \
            follower request needs the token; only the owner's secret publishes.
            """)

    @Option(help: "The port to listen on.")
    var port: Int

    @Option(help: "The address to listen on. Anything but loopback lets other machines join: say so here.")
    var bind = "127.0.0.1"

    @Option(help: ArgumentHelp("Share the session with every node given this Redis (redis://HOST:PORT).", valueName: "URL"))
    var redis: String?

    @Option(help: ArgumentHelp("The followers' token: the file's first line (the owner's host has the same).", valueName: "FILE"))
    var tokenFile: String

    @Option(help: ArgumentHelp("The owner's secret, which publishes: the file's first line (default: PAJAMA_RELAY_SECRET, else a random one, printed).",
                               valueName: "FILE"))
    var secretFile: String?

    @Option(help: ArgumentHelp("The owner's host (http://HOST:PORT/), whose story files the node caches.", valueName: "URL"))
    var origin: String?

    @Option(help: ArgumentHelp("Serve over TLS with this certificate (PEM; with --tls-key).", valueName: "FILE"))
    var tlsCert: String?

    @Option(help: ArgumentHelp("The TLS certificate's private key (PEM).", valueName: "FILE"))
    var tlsKey: String?

    static var secretVariable: String { RelayConfiguration.secretVariable }

    func validate() throws {
        guard (1...65535).contains(port) else { throw ValidationError("--port takes 1...65535") }
        if (tlsCert == nil) != (tlsKey == nil) { throw ValidationError("--tls-cert and --tls-key go together") }
        if let redis, !(redis.hasPrefix("redis://") && redis.count > "redis://".count) {
            throw ValidationError("--redis takes redis://HOST:PORT")
        }
        if let origin {
            guard let url = URL(string: origin), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
                  url.host?.isEmpty == false else {
                throw ValidationError("--origin takes the owner's host URL, http://HOST:PORT/")
            }
        }
        guard !bind.isEmpty else { throw ValidationError("--bind takes an address (127.0.0.1, ::1, 0.0.0.0...)") }
        _ = try token()
        _ = try secret()
    }

    func token() throws -> String {
        let token = try TokenOptions.read(tokenFile)
        if let problem = RelayConfiguration.problem(with: token, named: "--token-file \(tokenFile)") { throw ValidationError(problem) }
        return token
    }

    /// The owner's secret, and whether it was made here (then printed).
    func secret(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> (String, made: Bool) {
        let given: String
        let source: String
        if let secretFile {
            given = try TokenOptions.read(secretFile)
            source = "--secret-file \(secretFile)"
        } else if let value = environment[Self.secretVariable] {
            given = value
            source = Self.secretVariable
        } else {
            return (HostAccess.randomToken(), true)
        }
        if let problem = RelayConfiguration.problem(with: given, named: source) { throw ValidationError(problem) }
        return (given, false)
    }

    func run(paths: Paths) async throws {
        let (secret, made) = try secret()
        let state = paths.logFile.deletingLastPathComponent().path
        _ = try? FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        let configuration = RelayConfiguration(
            bind: bind, port: port, redis: redis, token: try token(), secret: secret, origin: origin.map { URL(string: $0)! },
            tlsCertificate: tlsCert.map(Self.absolute), tlsKey: tlsKey.map(Self.absolute), folder: "\(state)/relay-\(port)",
            errorLog: "\(state)/relay-\(port).log")
        let node = RelayNode(configuration: configuration)
        let signals = await MainActor.run { QuitSignals() }
        await signals.start()
        do {
            try await node.start()
        } catch {
            await MainActor.run { signals.stop() }
            ReaderApp.printError("pajama: relay: \(error)")
            throw ExitCode(2)
        }
        PajamaLog.coreading.info("relay node on \(configuration.url) (nginx pid \(node.pid ?? 0); its log: \(configuration.errorLog))")
        ReaderApp.printError("pajama: relay node on \(configuration.url) (nginx's log: \(configuration.errorLog)); Ctrl-C stops it")
        if !(bind.hasPrefix("127.") || bind == "::1" || bind == "localhost") {
            ReaderApp.printError("pajama: listening on \(bind): anyone who can reach this machine on port \(port) and has the token can follow")
        }
        if made {
            ReaderApp.printError("pajama: the owner publishes with: \(Self.secretVariable)=\(secret) pajama host STORY --relay \(configuration.url)")
        }
        ReaderApp.printError("pajama: followers: PAJAMA_TOKEN=... pajama join \(configuration.url)")
        // Until a quit signal (stop nginx), or nginx ends by itself (say how).
        let (stopped, stop) = AsyncStream<Int32?>.makeStream()
        await MainActor.run { signals.onSignal = { stop.yield(signals.received) } }
        let watcher = Task {
            let how = await node.waitUntilEnded()
            ReaderApp.printError("pajama: relay: nginx stopped (\(how)); see \(configuration.errorLog)")
            stop.yield(nil)
        }
        var iterator = stopped.makeAsyncIterator()
        let signal = await iterator.next() ?? nil
        watcher.cancel()
        await node.stop()
        await MainActor.run { signals.stop() }
        if let signal {
            ReaderApp.printError("pajama: relay stopped")
            throw ExitCode(128 + signal)
        }
        throw ExitCode(2)
    }

    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }
}
