import AsyncHTTPClient
import Foundation
import Logging
import NIOWebSocket
import PajamaModel
import PajamaHTTP
import PajamaTestSupport
import Testing
import WSClient
@testable import PajamaCoReading

/// A real host and real followers on 127.0.0.1.
@Suite(.serialized) struct LoopbackSessionTests {
    @Test func twoFollowersSeeEveryMoveInOrderAndTheLastOneAlways() async throws {
        let folder = try HostedFolder()
        let host = try await startHost(folder)
        let ann = RecordingFollower(url: host.joinURL, token: "secret-secret-42", name: "ann")
        let cy = RecordingFollower(url: host.joinURL, token: "secret-secret-42", name: "cy")
        #expect(await eventually { ann.welcomes.count == 1 && cy.welcomes.count == 1 })
        #expect(await eventually { await host.session.current.participants.sorted() == ["ann", "cy"] })
        let moves = (1...200).map { at($0 % 2 + 1, line: $0) }
        for move in moves { await host.publish(move) }
        for follower in [ann, cy] {
            #expect(await eventually { follower.lastLocation == moves.last })
            // In order: each received move comes later in the owner's sequence than the one before.
            let indices = follower.locations.compactMap { moves.firstIndex(of: $0) }
            #expect(indices == indices.sorted())
        }
        await host.end()
    }

    @Test func aLateFollowerLandsOnTheCurrentPageAtOnce() async throws {
        let folder = try HostedFolder()
        let host = try await startHost(folder)
        for line in 0..<5 { await host.publish(at(2, line: line)) }
        let late = RecordingFollower(url: host.joinURL, token: "secret-secret-42", name: "late")
        #expect(await eventually { late.welcomes.count == 1 })
        #expect(late.welcomes.first?.location == at(2, line: 4))
        #expect(late.welcomes.first?.owner == "bob")
        #expect(late.welcomes.first?.story == SessionStory(id: "shared", version: "2", url: "/"))
        await host.end()
    }

    @Test func theHostServesThePackageToItsHTTPSourceWithTheToken() async throws {
        let folder = try HostedFolder()
        let host = try await startHost(folder)
        let source = HTTPStorySource(baseURL: URL(string: host.joinURL)!, authorization: "Bearer secret-secret-42")
        let beat = try await source.read("beats/start.json")
        #expect(String(decoding: beat, as: UTF8.self).contains("\"p2\""))
        await #expect(throws: StorySourceError.notFound(path: "beats/none.json")) { try await source.read("beats/none.json") }
        await host.end()
    }

    @Test func aWrongOrMissingTokenGets401AndALogLine() async throws {
        let folder = try HostedFolder()
        let log = Lines()
        let host = try await startHost(folder, log: { log.append($0) })
        for authorization in [nil, "Bearer wrong"] {
            let source = HTTPStorySource(baseURL: URL(string: host.joinURL)!, authorization: authorization)
            await #expect(throws: StorySourceError.httpStatus(path: "story.json", status: 401)) { try await source.read("story.json") }
        }
        // ?token= works as well as the header.
        let byQuery = try await HTTPClient.shared.execute(HTTPClientRequest(url: host.joinURL + "story.json?token=secret-secret-42"), timeout: .seconds(10))
        #expect(byQuery.status.code == 200)
        let wrongQuery = try await HTTPClient.shared.execute(HTTPClientRequest(url: host.joinURL + "story.json?token=nope"), timeout: .seconds(10))
        #expect(wrongQuery.status.code == 401)
        #expect(log.all.count == 3)
        #expect(log.all.first?.contains("no token") == true && log.all.first?.contains("401") == true)
        #expect(log.all.last?.contains("wrong token") == true)
        await host.end()
    }

    @Test func aPathOutsideTheFolderIsNeverServed() async throws {
        let folder = try HostedFolder()
        _ = try folder.dir.write("../pajama-coread-outside.txt", "secret file")
        try FileManager.default.createSymbolicLink(atPath: folder.dir.path + "/assets/link.txt",
                                                   withDestinationPath: folder.dir.url.deletingLastPathComponent().path + "/pajama-coread-outside.txt")
        let host = try await startHost(folder)
        for path in ["../pajama-coread-outside.txt", "%2E%2E/pajama-coread-outside.txt", "assets/link.txt"] {
            var request = HTTPClientRequest(url: host.joinURL + path)
            request.headers.add(name: "Authorization", value: "Bearer secret-secret-42")
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
            let body = try await response.body.collect(upTo: 1 << 16)
            #expect(response.status.code != 200, "\(path)")
            #expect(!String(buffer: body).contains("secret file"))
        }
        try? FileManager.default.removeItem(at: folder.dir.url.deletingLastPathComponent().appendingPathComponent("pajama-coread-outside.txt"))
        await host.end()
    }

    @Test func aWrongTokenIsRefusedOnTheSocket() async throws {
        let folder = try HostedFolder()
        let log = Lines()
        let host = try await startHost(folder, log: { log.append($0) })
        let intruder = RecordingFollower(url: host.joinURL, token: "wrong", name: "eve")
        #expect(await eventually { intruder.failure != nil })
        #expect(intruder.failure == .tokenRefused)
        #expect(intruder.failure?.description == "the host refused the token")
        #expect(await host.session.current.participants.isEmpty)
        #expect(log.all.contains { $0.contains("/session") && $0.contains("wrong token") && $0.contains("401") }, "\(log.all)")
        await host.end()
    }

    @Test func aStoryOnAWebServerIsReadThereAndTheHostServesOnlyTheSession() async throws {
        let folder = try HostedFolder()
        let web = try await TestHTTPServer(root: folder.dir.url)
        defer { web.stopSoon() }
        let host = CoReadingHost(content: .url(URL(string: web.baseURL + "/")!), storyId: "shared", storyVersion: "2",
                                 configuration: .init(port: 0, ownerName: "bob"), token: "secret-secret-42", log: { _ in })
        _ = try await host.start()
        let ann = RecordingFollower(url: host.joinURL, token: "secret-secret-42", name: "ann")
        #expect(await eventually { ann.welcomes.count == 1 })
        guard case .welcome(_, let storyURL)? = ann.events.first else {
            Issue.record("no welcome: \(ann.events)")
            return
        }
        #expect(storyURL.absoluteString == web.baseURL + "/")
        let source = HTTPStorySource(baseURL: URL(string: host.joinURL)!, authorization: "Bearer secret-secret-42")
        await #expect(throws: StorySourceError.notFound(path: "story.json")) { try await source.read("story.json") }
        await host.end()
    }

    @Test func anUnreachableHostIsNamed() async throws {
        // A port that was just free: nothing listens there.
        let folder = try HostedFolder()
        let host = try await startHost(folder)
        let url = host.joinURL
        await host.end()
        let follower = RecordingFollower(url: url, token: "secret-secret-42", name: "ann")
        #expect(await eventually { follower.failure != nil })
        guard case .unreachable(let named, _)? = follower.failure else {
            Issue.record("expected unreachable, got \(String(describing: follower.failure))")
            return
        }
        #expect(named == url)
        #expect(follower.failure?.description.hasPrefix("cannot reach the host at \(url)") == true)
    }

    @Test func aDroppedFollowerReconnectsAndCatchesUp() async throws {
        let folder = try HostedFolder()
        let host = try await startHost(folder)
        let ann = RecordingFollower(url: host.joinURL, token: "secret-secret-42", name: "ann")
        #expect(await eventually { ann.welcomes.count == 1 })
        await host.dropConnections()
        #expect(await eventually { ann.events.contains { if case .reconnecting = $0 { true } else { false } } })
        await host.publish(at(2, line: 7))
        #expect(await eventually { ann.lastLocation == at(2, line: 7) })
        #expect(await eventually { ann.welcomes.count >= 2 })
        #expect(await eventually { await host.session.current.participants == ["ann"] })
        await host.end()
    }

    @Test func aFollowerStoppedAndStartedAgainCatchesUp() async throws {
        let folder = try HostedFolder()
        let host = try await startHost(folder)
        let first = RecordingFollower(url: host.joinURL, token: "secret-secret-42", name: "ann")
        #expect(await eventually { first.welcomes.count == 1 })
        first.stop()
        #expect(await eventually { await host.session.current.participants.isEmpty })
        await host.publish(at(1, line: 3))
        let again = RecordingFollower(url: host.joinURL, token: "secret-secret-42", name: "ann")
        #expect(await eventually { again.lastLocation == at(1, line: 3) })
        await host.end()
    }

    @Test func whenTheOwnerEndsFollowersAreToldWhoEndedIt() async throws {
        let folder = try HostedFolder()
        let host = try await startHost(folder, owner: "Bob")
        let ann = RecordingFollower(url: host.joinURL, token: "secret-secret-42", name: "ann")
        let cy = RecordingFollower(url: host.joinURL, token: "secret-secret-42", name: "cy")
        #expect(await eventually { ann.welcomes.count == 1 && cy.welcomes.count == 1 })
        await host.end()
        for follower in [ann, cy] {
            #expect(await eventually { follower.events.last == .ended(owner: "Bob") })
        }
    }

    @Test func aFollowerThatNeverReadsDoesNotSlowTheOthers() async throws {
        let folder = try HostedFolder()
        let host = try await startHost(folder)
        // A raw socket that says hello and then never reads what the host sends.
        let silent = Task {
            var headers = WebSocketClientConfiguration().additionalHeaders
            headers[.authorization] = "Bearer secret-secret-42"
            _ = try? await WebSocketClient.connect(
                url: host.joinURL + "session", configuration: .init(maxFrameSize: 1 << 20, additionalHeaders: headers),
                logger: Logger(label: "silent", factory: { _ in SwiftLogNoOpLogHandler() })
            ) { _, outbound, _ in
                try await outbound.write(.text(SessionCodec.encode(.hello(name: "silent"))))
                // Holds the socket, reading nothing, until the test cancels it.
                let (never, keepOpen) = AsyncStream<Void>.makeStream()
                for await _ in never {}
                keepOpen.finish()
            }
        }
        defer { silent.cancel() }
        let ann = RecordingFollower(url: host.joinURL, token: "secret-secret-42", name: "ann")
        #expect(await eventually { await host.session.current.participants.sorted() == ["ann", "silent"] })
        // Far more than the socket buffers hold: long cue paths, every one of them a new message.
        let long = String(repeating: "x", count: 900)
        for move in 1...3000 {
            await host.cue(try AssetPath(validating: "assets/\(long)\(move).ogg"), .tap)
            await host.publish(at(move % 2 + 1, line: move))
        }
        #expect(await eventually { ann.lastLocation == at(3000 % 2 + 1, line: 3000) })
        for follower in await host.session.followers {
            #expect(follower.outbox.count <= FollowerOutbox.cueLimit + 4)
        }
        await host.end()
    }

    @Test func badMessagesAreRefusedWithACloseReason() async throws {
        let folder = try HostedFolder()
        let host = try await startHost(folder)
        let cases: [(String, String)] = [
            ("not json", "malformed message: not JSON"),
            (#"{"v":9,"type":"hello","name":"x"}"#, "unsupported protocol version 9 (this reader speaks 1)"),
            (SessionCodec.encode(.location(at(1))), "a follower says hello first, not location"),
        ]
        for (sent, reason) in cases {
            var headers = WebSocketClientConfiguration().additionalHeaders
            headers[.authorization] = "Bearer secret-secret-42"
            let close = try await WebSocketClient.connect(
                url: host.joinURL + "session", configuration: .init(maxFrameSize: 1 << 20, additionalHeaders: headers),
                logger: Logger(label: "bad", factory: { _ in SwiftLogNoOpLogHandler() })
            ) { inbound, outbound, _ in
                try await outbound.write(.text(sent))
                for try await _ in inbound {}
            }
            #expect(close?.reason == reason)
        }
        #expect(await host.session.current.participants.isEmpty)
        await host.end()
    }
}
