import Foundation
import Glibc
import PajamaBasics
import PajamaModel

/// A private Redis for the relay tests and the bench: Debian's redis-server on 127.0.0.1, saving nothing
/// (`--save ''`), spawned as the private PulseAudio server is and stopped by its user (`stop()`).
public struct PrivateRedis: Sendable {
    public static let candidates = ["/usr/bin/redis-server", "/usr/local/bin/redis-server", "/usr/sbin/redis-server"]

    public let port: Int
    public let pid: pid_t

    public var url: String { "redis://127.0.0.1:\(port)" }

    /// Starts redis-server on `port` (a free one if nil) and waits until it listens.
    public static func start(port given: Int? = nil) async throws -> PrivateRedis {
        guard let executable = candidates.first(where: { access($0, X_OK) == 0 }) else {
            throw ChildProcess.Failure(message: "redis-server is not installed (scripts/install-deps.sh)")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pajama-redis-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let port = given ?? freeLoopbackPort()
        let log = folder.path + "/redis.log"
        let pid = try ChildProcess.spawn(executable, ["--port", "\(port)", "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                                                      "--daemonize", "no", "--maxclients", "10000", "--dir", folder.path],
                                         outputFile: log, errorFile: log)
        let redis = PrivateRedis(port: port, pid: pid)
        let ended = Locked<String?>(nil)
        guard await eventually(timeout: .seconds(20), {
            if acceptsConnections(host: "127.0.0.1", port: port) { return true }
            ended.withLock { $0 = $0 ?? ChildProcess.exitDescription(pid) }
            return ended.withLock { $0 } != nil
        }), ended.withLock({ $0 }) == nil else {
            ChildProcess.terminate(pid)
            throw ChildProcess.Failure(message: "redis-server did not listen on \(port): \(ended.withLock { $0 } ?? "no answer"); see \(log)")
        }
        return redis
    }

    /// Stops the server (SIGTERM, SIGKILL after 2 s) and reaps it.
    public func stop() { ChildProcess.terminate(pid) }
}

/// A free TCP port on loopback (bound and released: a server started right after takes it).
public func freeLoopbackPort() -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
    _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
    return Int(UInt16(bigEndian: address.sin_port))
}
