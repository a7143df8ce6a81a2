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
    /// port and nchan answers for the channel (with `redis`: until nchan's link to Redis is up; before, nchan
    /// refuses every follower). Throws a `Failure` saying why it did not (nginx or nchan missing, the port in
    /// use, a bad certificate: nginx's own words from its error log; Redis not reached).
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
        // A socket left by a nginx that was killed would keep this one from binding.
        unlink(configuration.readinessSocket)
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
        var listening = false
        var answered: Int?
        while ContinuousClock.now < deadline {
            if let how = process.endedHow {
                throw Failure(description: "nginx stopped as it started (\(how)): \(Self.reason(log: errorLog, from: startedAt))")
            }
            // nginx writes its pid file once it has bound the port (a port in use ends it before); something
            // else answering on the port is not this node.
            if !listening {
                listening = Self.pid(in: folder + "/nginx.pid") == process.pid && acceptsConnections(host: configuration.bind, port: configuration.port)
            }
            // Then its worker, asked on the node's own socket: nchan answers 503 until its Redis link is up
            // (some milliseconds after the worker starts, longer under load), and a follower joining then was
            // refused.
            if listening {
                answered = Self.readiness(socket: configuration.readinessSocket)
                if let answered, answered != 503 { return }
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
        await stop()
        if listening, let redis = configuration.redis {
            throw Failure(description: "nchan did not reach Redis at \(redis) within \(patience)"
                + (answered == 503 ? "" : " (its node did not answer)") + ": \(Self.redisReason(log: errorLog, from: startedAt))")
        }
        if listening {
            throw Failure(description: "nginx listened on \(configuration.bind):\(configuration.port) but nchan did not answer within \(patience): \(Self.reason(log: errorLog, from: startedAt))")
        }
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
        guard let text = text(log: log, from: offset) else { return "see \(log)" }
        let lines = text.split(separator: "\n").filter { $0.contains("[emerg]") || $0.contains("[crit]") }
        guard let first = lines.first else { return "see \(log)" }
        if first.contains("Address already in use") { return "the port is in use; choose another with --port" }
        if first.contains("Permission denied"), first.contains("bind()") { return "no permission to listen there (a port below 1024 needs privileges)" }
        if first.contains("Cannot assign requested address") { return "the address is not one of this machine's (--bind)" }
        let line = String(first)
        let said = line.firstRange(of: "[emerg] ").map { String(line[$0.upperBound...]) } ?? line
        return String(said.prefix(300))
    }

    /// nginx's log since `offset` (its first megabyte), nil if it cannot be read.
    private static func text(log: String, from offset: Int) -> String? {
        let fd = open(log, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        lseek(fd, off_t(offset), SEEK_SET)
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16384)
        while bytes.count < 1 << 20 {
            let n = read(fd, &buffer, buffer.count)
            guard n > 0 else { break }
            bytes += buffer[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// nchan's last words about Redis since `offset` in nginx's log.
    static func redisReason(log: String, from offset: Int) -> String {
        guard let line = text(log: log, from: offset)?.split(separator: "\n").last(where: { $0.lowercased().contains("redis") }) else {
            return "is it running, and reachable from here? (see \(log))"
        }
        let said = line.firstRange(of: "nchan: ").map { String(line[$0.upperBound...]) } ?? String(line)
        return String(said.prefix(300))
    }

    /// The HTTP status nginx answers `RelayConfiguration.readinessPath` with on the node's Unix socket `socket`
    /// (nil: no answer, within a second).
    static func readiness(socket path: String) -> Int? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else { return nil }
        let request = Array("GET \(RelayConfiguration.readinessPath) HTTP/1.0\r\nHost: pajama-relay\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count else { return nil }
        // "HTTP/1.1 503 ...": the status line is in the first bytes.
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        while answer.count < 12 {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { break }
            answer += buffer[0..<n]
        }
        let words = String(decoding: answer, as: UTF8.self).split(separator: " ")
        guard words.count >= 2, words[0].hasPrefix("HTTP/") else { return nil }
        return Int(words[1])
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
}
