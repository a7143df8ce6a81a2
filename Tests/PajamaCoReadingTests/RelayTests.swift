import AsyncHTTPClient
import Foundation
import Glibc
import NIOCore
import NIOHTTP1
import PajamaBasics
import PajamaModel
import PajamaHTTP
import PajamaTestSupport
import Testing
@testable import PajamaCoReading

/// A real relay node (Debian's nginx + nchan, started by the test on 127.0.0.1; scripts/install-deps.sh
/// installs them): the token guards the followers' requests at the node, only the owner's secret publishes,
/// a late joiner's first message is the newest published, and the node's nginx stops with it.
@Suite(.serialized) struct RelayTests {
    static let token = "relay-token-0123456789abcdef"
    static let secret = "relay-secret-0123456789abcdef"

    /// A node on 127.0.0.1:`port` (not started), with its own folder; `origin`: the owner's host.
    static func node(port: Int, origin: URL? = nil, redis: String? = nil) throws -> (RelayNode, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pajama-relay-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let configuration = RelayConfiguration(port: port, redis: redis, token: token, secret: secret, origin: origin, folder: folder.path + "/node",
                                               errorLog: folder.path + "/nginx.log", workerConnections: 256)
        return (RelayNode(configuration: configuration), URL(string: "http://127.0.0.1:\(port)")!)
    }

    /// Runs `body`, then stops every node (started or not) and `redis`, whether `body` returned or threw.
    static func running(_ nodes: [RelayNode], redis: PrivateRedis? = nil, _ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch {
            for node in nodes { await node.stop() }
            redis?.stop()
            throw error
        }
        for node in nodes { await node.stop() }
        redis?.stop()
    }

    /// A GET's status, body and the node's cache word (`X-Pajama-Cache`).
    static func response(_ url: String, authorization: String? = nil) async throws -> (status: Int, body: String, cache: String?) {
        var request = HTTPClientRequest(url: url)
        if let authorization { request.headers.add(name: "Authorization", value: authorization) }
        let response = try await HTTPStorySource.defaultClient.execute(request, timeout: .seconds(5))
        let body = String(buffer: try await response.body.collect(upTo: 1 << 20))
        return (Int(response.status.code), body, response.headers.first(name: "X-Pajama-Cache"))
    }

    static func request(_ url: String, method: HTTPMethod = .GET, authorization: String? = nil, body: String? = nil,
                        accept: String? = nil) async throws -> (Int, String) {
        var request = HTTPClientRequest(url: url)
        request.method = method
        if let authorization { request.headers.add(name: "Authorization", value: authorization) }
        if let accept { request.headers.add(name: "Accept", value: accept) }
        if let body { request.body = .bytes(ByteBuffer(string: body)) }
        let response = try await HTTPStorySource.defaultClient.execute(request, timeout: .seconds(5))
        let text = String(buffer: try await response.body.collect(upTo: 1 << 20))
        return (Int(response.status.code), text)
    }

    @Test func theTokenGuardsFollowersAndTheSecretGuardsPublishing() async throws {
        let (node, base) = try Self.node(port: freeLoopbackPort())
        try await Self.running([node]) {
            try await node.start()
            let pid = try #require(node.pid)
            // Without the token, or with another, a follower's request is refused at the node.
            #expect(try await Self.request("\(base)/session").0 == 401)
            #expect(try await Self.request("\(base)/session", authorization: "Bearer wrong-token-0123456789").0 == 401)
            #expect(try await Self.request("\(base)/story.json").0 == 401)
            // Only the owner's secret publishes (the followers' token does not).
            #expect(try await Self.request("\(base)/relay/publish", method: .POST, authorization: "Bearer \(Self.token)", body: "{}").0 == 403)
            let first = #"{"v":1,"type":"location"}"#, second = #"{"v":1,"type":"end","name":"olive"}"#
            for message in [first, second] {
                let (status, _) = try await Self.request("\(base)/relay/publish", method: .POST, authorization: "Bearer \(Self.secret)", body: message)
                #expect((200..<300).contains(status))
            }
            // A late joiner (EventSource here) gets the newest message first, not the one before it.
            #expect(try await Self.firstEvent("\(base)/session?token=\(Self.token)") == second)
            // With the token in the query, a story file is asked for (this node has no origin: nothing to serve).
            #expect(try await Self.request("\(base)/story.json?token=\(Self.token)").0 == 404)
            #expect(try await Self.request("\(base)/.env?token=\(Self.token)").0 == 404)
            await node.stop()
            #expect(node.endedHow != nil)
            #expect(kill(pid, 0) != 0)  // the master is gone
            #expect(!acceptsConnections(host: "127.0.0.1", port: base.port!))
        }
    }

    /// The first message of an EventSource subscription to `url` (nil when the node closed it first).
    static func firstEvent(_ url: String) async throws -> String? {
        var events = HTTPClientRequest(url: url)
        events.headers.add(name: "Accept", value: "text/event-stream")
        let response = try await HTTPStorySource.defaultClient.execute(events, timeout: .seconds(10))
        var seen = ""
        for try await chunk in response.body {
            seen += String(buffer: chunk)
            if let data = seen.range(of: "data: "), seen[data.upperBound...].contains("\n\n") {
                return String(seen[data.upperBound...].prefix { $0 != "\n" })
            }
        }
        return nil
    }

    /// The node's count of followers of the channel (what the owner's host asks).
    static func subscribers(_ base: URL) async throws -> Int? {
        let (_, text) = try await request("\(base)\(RelayConfiguration.publishPath)", authorization: "Bearer \(secret)")
        guard let line = text.split(whereSeparator: \.isNewline).first(where: { $0.hasPrefix("active subscribers:") }) else { return nil }
        return Int(line.dropFirst("active subscribers:".count).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test func followersWhoJoinBeforeTheFirstMessageGetItAndTheNodeLives() async throws {
        let (node, base) = try Self.node(port: freeLoopbackPort())
        try await Self.running([node]) {
            try await node.start()
            // Two followers on a channel with no message yet: nchan 1.3.6 aborted its worker here when a late
            // joiner's first message was `-1` (spool.c:479), and neither follower got the owner's first page.
            let followers = (0..<2).map { _ in Task { try await withDeadline(.seconds(20)) { try await Self.firstEvent("\(base)/session?token=\(Self.token)") } } }
            let subscribed = await eventually(timeout: .seconds(20)) { (try? await Self.subscribers(base)) == 2 }
            let counted = try? await Self.request("\(base)\(RelayConfiguration.publishPath)", authorization: "Bearer \(Self.secret)")
            #expect(subscribed, "\(String(describing: counted))")
            let message = #"{"v":1,"type":"location"}"#
            let (status, _) = try await Self.request("\(base)\(RelayConfiguration.publishPath)", method: .POST, authorization: "Bearer \(Self.secret)", body: message)
            #expect((200..<300).contains(status))
            for follower in followers {
                #expect(try await follower.value == message)
            }
            // And one who joins now gets it first.
            #expect(try await withDeadline(.seconds(20)) { try await Self.firstEvent("\(base)/session?token=\(Self.token)") } == message)
            #expect(node.endedHow == nil)
            let log = (try? String(contentsOfFile: node.configuration.errorLog, encoding: .utf8)) ?? ""
            #expect(!log.contains("exited on signal"), "\(log)")
        }
    }

    @Test func aPortInUseIsSaidInWords() async throws {
        let port = freeLoopbackPort()
        let (first, _) = try Self.node(port: port)
        let (second, _) = try Self.node(port: port)
        try await Self.running([first, second]) {
            try await first.start()
            var said = ""
            do { try await second.start() } catch { said = "\(error)" }
            #expect(said.contains("the port is in use"), "\(said)")
            #expect(second.pid == nil)
        }
    }
}
