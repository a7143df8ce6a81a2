import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaModel

/// A running relay node: Debian's nginx with nchan (`RelayConfiguration`), a child of this process run in the
/// foreground (`daemon off`), bound to it (`BoundChild`: it is sent SIGTERM when this process ends, however it
/// ends, `pajama relay` killed with SIGKILL included). `stop()` ends it (SIGTERM, then SIGKILL after 5 s). A
/// node stopped (or killed) may be started again.
public final class RelayNode: Sendable {
    /// Where Debian puts nginx and the nchan module (libnginx-mod-nchan).
    public static let nginxCandidates = ["/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/local/nginx/sbin/nginx"]
    public static let nchanCandidates = ["/usr/lib/nginx/modules/ngx_nchan_module.so", "/usr/share/nginx/modules/ngx_nchan_module.so",
                                         "/usr/local/lib/nginx/modules/ngx_nchan_module.so"]

    /// nginx's executable, if installed.
    public static var nginx: String? { nginxCandidates.first { access($0, X_OK) == 0 } }
    /// nchan's module file, if installed.
    public static var nchanModule: String? { nchanCandidates.first { access($0, R_OK) == 0 } }

    /// Why a node could not start.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    public let configuration: RelayConfiguration
    /// nginx, once started.
    private let child = Locked<BoundChild?>(nil)

    public init(configuration: RelayConfiguration) {
        self.configuration = configuration
    }

    /// nginx's master's pid while it runs.
    public var pid: pid_t? { child.withLock { $0 }?.pid }

    /// Writes the configuration, starts nginx and waits (at most `patience`) until it accepts connections on the
    /// port. Throws a `Failure` saying why it did not (nginx or nchan missing, the port in use, a bad certificate:
    /// nginx's own words from its error log).
    public func start(patience: Duration = .seconds(10)) async throws {
        guard let nginx = Self.nginx else {
            throw Failure(description: "nginx is not installed (Debian: apt-get install nginx libnginx-mod-nchan; scripts/install-deps.sh)")
        }
        guard let module = Self.nchanModule else {
            throw Failure(description: "nginx's nchan module is not installed (Debian: apt-get install libnginx-mod-nchan)")
        }
        let folder = configuration.folder
        let user = try prepare(folder: folder)
        let file = folder + "/nginx.conf"
        try write(configuration.nginxConfiguration(module: module, user: user), to: file)
        // What nginx says before its configuration's error_log takes over (and its messages after) go to its log.
        let errorLog = configuration.errorLog
        let startedAt = fileSize(atPath: errorLog) ?? 0
        let process = BoundChild(executable: nginx, arguments: ["-p", folder + "/", "-c", file, "-e", errorLog], log: errorLog)
        guard child.withLock({ child -> Bool in
            if let running = child, running.endedHow == nil { return false }
            child = process
            return true
        }) else { throw Failure(description: "this node's nginx already runs") }
        do {
            try await process.start()
        } catch {
            throw Failure(description: "nginx \(error)")
        }
        let deadline = ContinuousClock.now + patience
        while ContinuousClock.now < deadline {
            if let how = process.endedHow {
                throw Failure(description: "nginx stopped as it started (\(how)): \(Self.reason(log: errorLog, from: startedAt))")
            }
            // nginx writes its pid file once it has bound the port (a port in use ends it before); something
            // else answering on the port is not this node.
            if Self.pid(in: folder + "/nginx.pid") == process.pid, Self.accepts(host: configuration.bind, port: configuration.port) { return }
            try? await Task.sleep(for: .milliseconds(20))
        }
        await stop()
        throw Failure(description: "nginx did not listen on \(configuration.bind):\(configuration.port) within \(patience): \(Self.reason(log: errorLog, from: startedAt))")
    }

    /// How nginx ended, once it has (nil before it started, and while it runs).
    public var endedHow: String? { child.withLock { $0 }?.endedHow }

    /// Waits until nginx ends (at once if it has, or never started); returns how it ended.
    public func waitUntilEnded() async -> String {
        guard let process = child.withLock({ $0 }) else { return "it was never started" }
        return await process.waitUntilEnded()
    }

    /// Stops nginx (SIGTERM: its fast shutdown; SIGKILL to its process group after `patience`) and waits for it.
    public func stop(patience: Duration = .seconds(5)) async {
        await child.withLock { $0 }?.stop(patience: patience)
    }

    /// Kills nginx's master and workers at once (SIGKILL; tests: a node that dies).
    public func kill9() async {
        await child.withLock { $0 }?.kill9()
    }

    // MARK: Files

    /// Makes the private folder (0700, its `temp` and `cache` inside); as root, nginx's workers run as
    /// `nobody`, who then owns it (they write the cache). Returns the `user` line's account.
    private func prepare(folder: String) throws -> String? {
        for path in [folder, folder + "/temp", folder + "/cache"] {
            if mkdir(path, 0o700) != 0, errno != EEXIST {
                throw Failure(description: "cannot make \(path): \(String(cString: strerror(errno)))")
            }
            chmod(path, 0o700)
        }
        guard geteuid() == 0 else { return nil }
        guard let nobody = getpwnam("nobody") else { return "root" }
        let uid = nobody.pointee.pw_uid, gid = nobody.pointee.pw_gid
        for path in [folder, folder + "/temp", folder + "/cache"] { chown(path, uid, gid) }
        let group = getgrgid(gid).map { String(cString: $0.pointee.gr_name) } ?? "nogroup"
        return "nobody \(group)"
    }

    private func write(_ text: String, to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Failure(description: "cannot write \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        fchmod(fd, 0o600)
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { throw Failure(description: "cannot write \(path): \(String(cString: strerror(errno)))") }
            sent += n
        }
    }

    /// nginx's `[emerg]` lines since `offset` in its log, said in a few words (a port in use as the host says it).
    static func reason(log: String, from offset: Int) -> String {
        guard let fd = Optional(open(log, O_RDONLY | O_CLOEXEC)), fd >= 0 else { return "see \(log)" }
        defer { close(fd) }
        lseek(fd, off_t(offset), SEEK_SET)
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16384)
        while bytes.count < 1 << 20 {
            let n = read(fd, &buffer, buffer.count)
            guard n > 0 else { break }
            bytes += buffer[0..<n]
        }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").filter { $0.contains("[emerg]") || $0.contains("[crit]") }
        guard let first = lines.first else { return "see \(log)" }
        if first.contains("Address already in use") { return "the port is in use; choose another with --port" }
        if first.contains("Permission denied"), first.contains("bind()") { return "no permission to listen there (a port below 1024 needs privileges)" }
        if first.contains("Cannot assign requested address") { return "the address is not one of this machine's (--bind)" }
        let line = String(first)
        let said = line.firstRange(of: "[emerg] ").map { String(line[$0.upperBound...]) } ?? line
        return String(said.prefix(300))
    }

    /// The pid in nginx's pid file, if there is one.
    static func pid(in file: String) -> pid_t? {
        let fd = open(file, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 32)
        let n = read(fd, &buffer, buffer.count)
        guard n > 0 else { return nil }
        return pid_t(String(decoding: buffer[0..<n], as: UTF8.self).trimmingWhitespace)
    }

    /// Whether something accepts a TCP connection at host:port.
    static func accepts(host: String, port: Int) -> Bool {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        let target = host == "0.0.0.0" ? "127.0.0.1" : host == "::" ? "::1" : host
        guard getaddrinfo(target, String(port), &hints, &found) == 0, let info = found else { return false }
        defer { freeaddrinfo(found) }
        let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), info.pointee.ai_protocol)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0
    }
}
