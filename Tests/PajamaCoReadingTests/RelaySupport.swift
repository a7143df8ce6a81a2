import Foundation
import Glibc
import PajamaTestSupport
import Testing
@testable import PajamaCoReading

/// A private Redis for the relay tests: Debian's redis-server on 127.0.0.1, saving nothing (`--save ''`), a
/// `BoundChild` of the test process (so it goes with it, however it ends), stopped by the test.
struct PrivateRedis {
    static let candidates = ["/usr/bin/redis-server", "/usr/local/bin/redis-server", "/usr/sbin/redis-server"]

    let port: Int
    let server: BoundChild

    var url: String { "redis://127.0.0.1:\(port)" }

    /// Starts redis-server on `port` (a free one if nil) and waits until it listens.
    static func start(port given: Int? = nil) async throws -> PrivateRedis {
        let executable = try #require(candidates.first { access($0, X_OK) == 0 }, "redis-server is not installed (scripts/install-deps.sh)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pajama-redis-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let port = given ?? RelayTests.freePort()
        let server = BoundChild(
            executable: executable,
            arguments: ["--port", "\(port)", "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--daemonize", "no",
                        "--dir", folder.path],
            log: folder.path + "/redis.log")
        try await server.start()
        let redis = PrivateRedis(port: port, server: server)
        guard await eventually(timeout: .seconds(20), { RelayNode.accepts(host: "127.0.0.1", port: port) || server.endedHow != nil }),
              server.endedHow == nil else {
            await server.stop()
            throw BoundChild.Failure(description: "redis-server did not listen on \(port): \(server.endedHow ?? "no answer"); see \(folder.path)/redis.log")
        }
        return redis
    }

    func stop() async { await server.stop() }
}

