import Foundation
import PajamaTestSupport
import Testing
@testable import PajamaCoReading

/// A full session that frees itself (issue 42, item 4): a socket counts against the follower cap only once
/// it has said hello; before that, it is one of the connections the budget bounds, and the hello timeout
/// closes it. Sockets with the token that never say hello cannot keep a real follower out.
@Suite(.serialized) struct HelloBeforeCapTests {
    static let token = "secret-secret-42"

    static func silentSocket(_ host: CoReadingHost) throws -> (RawConnection, String) {
        let connection = try RawConnection(port: host.port)
        connection.send("GET /session HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\nUpgrade: websocket\r\n"
            + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        return (connection, connection.read(until: "\r\n\r\n", timeout: .seconds(10)))
    }

    @Test func socketsThatNeverSayHelloLeaveRoomForAFollower() async throws {
        let folder = try HostedFolder()
        let log = Lines()
        let host = try await startHost(folder, limits: HostLimits(followerCap: 2, helloTimeout: .seconds(30)), log: { log.append($0) })
        // Twice the cap of sockets with the token that never say hello: each is upgraded (none is 503).
        var silent: [RawConnection] = []
        for _ in 0..<4 {
            let (connection, head) = try Self.silentSocket(host)
            #expect(head.hasPrefix("HTTP/1.1 101"), "\(head)")
            silent.append(connection)
        }
        #expect(await eventually(timeout: .seconds(10)) { host.openSockets == 4 })
        // A real follower joins at once, long before their hello timeout.
        let follower = RecordingFollower(url: host.joinURL, token: Self.token, name: "real")
        #expect(await eventually(timeout: .seconds(10)) { follower.welcomes.count == 1 }, "\(follower.events)")
        #expect(follower.failure == nil)
        // The cap still holds for those who said hello.
        let second = RecordingFollower(url: host.joinURL, token: Self.token, name: "second")
        #expect(await eventually(timeout: .seconds(10)) { second.welcomes.count == 1 })
        let third = RecordingFollower(url: host.joinURL, token: Self.token, name: "third")
        #expect(await eventually(timeout: .seconds(10)) { third.failure != nil })
        #expect(third.failure == .sessionFull(url: host.joinURL, detail: "2 following"))
        withExtendedLifetime(silent) {}
        await host.end()
    }

    @Test func theHelloTimeoutClosesEverySilentSocketPastTheCap() async throws {
        let folder = try HostedFolder()
        let log = Lines()
        let host = try await startHost(folder, limits: HostLimits(followerCap: 1, helloTimeout: .milliseconds(500)), log: { log.append($0) })
        var silent: [RawConnection] = []
        for _ in 0..<3 {
            let (connection, head) = try Self.silentSocket(host)
            #expect(head.hasPrefix("HTTP/1.1 101"), "\(head)")
            silent.append(connection)
        }
        // Waited for without holding a thread of Swift's pool (the host's timers run there): first all
        // three open (else 0 holds before they are counted), then none.
        #expect(await eventually(timeout: .seconds(10)) { host.openSockets == 3 || log.all.count == 3 })
        #expect(await eventually(timeout: .seconds(10)) { host.openSockets == 0 && log.all.count >= 3 })
        for connection in silent { #expect(connection.readUntilClosed(timeout: .seconds(2)).closed) }
        #expect(log.all.filter { $0.contains("no hello within 500 ms") }.count == 3, "\(log.all)")
        await host.end()
    }
}
