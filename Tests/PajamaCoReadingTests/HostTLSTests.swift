import AsyncHTTPClient
import Foundation
import NIOSSL
import PajamaModel
import PajamaHTTP
import PajamaTestSupport
import Testing
@testable import PajamaCoReading

/// A host over TLS (issue 26): a certificate made for the session, its fingerprint checked by the
/// follower before the token is sent; the story's files over HTTPS with the same trust. A real host on
/// 127.0.0.1.
@Suite(.serialized) struct HostTLSTests {
    static let token = "secret-secret-42"

    static func tlsHost(_ folder: HostedFolder) async throws -> CoReadingHost {
        let host = CoReadingHost(content: .folder(folder.dir.url), storyId: "shared", storyVersion: "2",
                                 configuration: .init(port: 0, ownerName: "bob", tls: .selfSigned), token: Self.token, log: { _ in })
        _ = try await host.start()
        return host
    }

    @Test func aFollowerJoinsOverTLSCheckingTheFingerprint() async throws {
        let folder = try HostedFolder()
        let host = try await Self.tlsHost(folder)
        #expect(host.joinURL.hasPrefix("https://127.0.0.1:"))
        let fingerprint = try #require(host.fingerprint)
        #expect(fingerprint.count == 64)
        #expect(host.joinCommand.hasSuffix("--fingerprint \(fingerprint)"))
        let url = URL(string: host.joinURL)!
        let tls = try await FollowerTLS.configuration(for: url, fingerprint: fingerprint)
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: HTTPClient.Configuration(tlsConfiguration: tls))
        let events = FollowerConnection.connect(to: url, token: Self.token, name: "ann", tls: tls, client: client)
        var iterator = events.makeAsyncIterator()
        let first = await iterator.next()
        guard case .welcome(let welcome, let storyURL)? = first else {
            Issue.record("no welcome: \(String(describing: first))")
            try await client.shutdown()
            return
        }
        #expect(welcome.owner == "bob")
        // The story's files over HTTPS, with the same pinned trust.
        let source = HTTPStorySource(baseURL: storyURL, client: client, authorization: "Bearer \(Self.token)")
        let beat = try await source.read("beats/start.json")
        #expect(String(decoding: beat, as: UTF8.self).contains("\"p2\""))
        await host.publish(StoryLocation(beatId: "start", pageId: "p2"))
        var moved: StoryLocation?
        while moved == nil, let event = await iterator.next() {
            if case .location(let location) = event { moved = location }
        }
        #expect(moved == StoryLocation(beatId: "start", pageId: "p2"))
        await host.end()
        try await client.shutdown()
    }

    @Test func aWrongFingerprintIsRefusedBeforeTheTokenIsSent() async throws {
        let folder = try HostedFolder()
        let log = Lines()
        let host = CoReadingHost(content: .folder(folder.dir.url), storyId: "shared", storyVersion: "2",
                                 configuration: .init(port: 0, ownerName: "bob", tls: .selfSigned), token: Self.token, log: { log.append($0) })
        _ = try await host.start()
        let wrong = String(repeating: "ab", count: 32)
        await #expect(throws: FollowerTLS.Refusal.self) { try await FollowerTLS.configuration(for: URL(string: host.joinURL)!, fingerprint: wrong) }
        do {
            _ = try await FollowerTLS.configuration(for: URL(string: host.joinURL)!, fingerprint: wrong)
        } catch {
            #expect("\(error)".contains("not the session you were given"), "\(error)")
        }
        // A client that trusts the system's authorities does not accept the session's certificate.
        var request = HTTPClientRequest(url: host.joinURL + "story.json")
        request.headers.add(name: "Authorization", value: "Bearer \(Self.token)")
        await #expect(throws: (any Error).self) { try await HTTPClient.shared.execute(request, timeout: .seconds(10)) }
        // Plain HTTP to the TLS port gets nothing (the token is never read in clear).
        let plain = try RawConnection(port: host.port)
        plain.send("GET /story.json?token=\(Self.token) HTTP/1.1\r\nHost: x\r\n\r\n")
        let (text, closed) = plain.readUntilClosed()
        #expect(closed)
        #expect(!text.contains("HTTP/1.1 200"))
        #expect(!log.all.joined().contains(Self.token))
        await host.end()
    }
}
