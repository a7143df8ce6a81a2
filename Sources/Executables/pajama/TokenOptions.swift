import ArgumentParser
import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaCoReading
import PajamaStorage

/// Where a co-reading token comes from: `--token-file FILE` or `PAJAMA_TOKEN` keep it out of the process
/// list (`ps` shows every argument); `--token T` is there too, for a quick try on one machine.
struct TokenOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The token (shows in `ps`: prefer --token-file or PAJAMA_TOKEN).", valueName: "T"))
    var token: String?

    @Option(help: ArgumentHelp("Read the token from FILE (its first line).", valueName: "FILE"))
    var tokenFile: String?

    /// The environment variable read when neither option is given.
    static let variable = "PAJAMA_TOKEN"

    /// The token given, from the option, the file or the environment (in that order); nil if none is.
    /// Throws a ValidationError naming the source when it cannot be read or is refused.
    func resolve(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> String? {
        if token != nil, tokenFile != nil { throw ValidationError("give the token once: --token or --token-file, not both") }
        let given: String
        let source: String
        if let token {
            given = token
            source = "--token"
        } else if let tokenFile {
            given = try Self.read(tokenFile)
            source = "--token-file \(tokenFile)"
        } else if let value = environment[Self.variable] {
            given = value
            source = Self.variable
        } else {
            return nil
        }
        if let problem = HostAccess.problem(with: given) { throw ValidationError("\(source): \(problem)") }
        return given
    }

    /// The first line of `path`, without its line end; at most 4 KB is read.
    static func read(_ path: String) throws -> String {
        let data: [UInt8]
        switch RegularFile.head(path, count: 4096) {
        case .bytes(let bytes): data = bytes
        case .missing: throw ValidationError("--token-file \(path): cannot read it (no such file)")
        case .unusable(let reason): throw ValidationError("--token-file \(path): cannot read it (\(reason))")
        }
        let text = String(decoding: data, as: UTF8.self)
        let line = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).first.map(String.init) ?? ""
        guard !line.isEmpty else { throw ValidationError("--token-file \(path): the file is empty") }
        return line
    }
}
