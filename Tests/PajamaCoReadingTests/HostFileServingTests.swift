import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import PajamaTestSupport
import Testing
@testable import PajamaCoReading

/// The host serves the story and nothing else (issue 26): only the files the package declares, never a
/// dotfile, within the format's size limits, streamed from disk, with ETags. A real host on 127.0.0.1.
@Suite(.serialized) struct HostFileServingTests {
    static let token = "secret-secret-42"

    /// A package with a picture named by a beat, one named by story.json's criticality, a beat reached only
    /// through a choice, and files beside them that no part of the story names.
    static func package() throws -> HostedFolder {
        let folder = try HostedFolder()
        _ = try folder.dir.write("story.json", """
        {"format":1,"id":"shared","title":"Shared","version":"2","startBeatId":"start","assets":{"criticality":{"assets/critical.txt":"critical"}}}
        """)
        _ = try folder.dir.write("beats/start.json", """
        {"id":"start","pages":[{"id":"p1","type":"text","lines":["one"],"imageUrl":"assets/pic.txt"},
         {"id":"p2","type":"choice","prompt":"Which?","choices":[{"text":"on","targetBeatId":"later"}]}]}
        """)
        _ = try folder.dir.write("beats/later.json", """
        {"id":"later","pages":[{"id":"l1","type":"text","lines":["end"]}]}
        """)
        _ = try folder.dir.write("assets/pic.txt", "picture")
        _ = try folder.dir.write("assets/critical.txt", "critical")
        _ = try folder.dir.write(".env", "SECRET=1")
        _ = try folder.dir.write(".git/config", "[core]")
        _ = try folder.dir.write("WALKTHROUGH.md", "spoilers")
        _ = try folder.dir.write("assets/unnamed.txt", "not named")
        _ = try folder.dir.write("beats/orphan.json", #"{"id":"orphan","pages":[{"id":"o","type":"text","lines":["x"]}]}"#)
        return folder
    }

    static func get(_ host: CoReadingHost, _ path: String, headers: [(String, String)] = []) async throws -> (UInt, HTTPHeaders, String) {
        var request = HTTPClientRequest(url: host.joinURL + path)
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 32 << 20)
        return (response.status.code, response.headers, String(buffer: body))
    }

    @Test func onlyTheFilesThePackageDeclaresAreServed() async throws {
        let folder = try Self.package()
        let log = Lines()
        let host = try await startHost(folder, log: { log.append($0) })
        for path in ["story.json", "beats/start.json", "beats/later.json", "assets/pic.txt", "assets/critical.txt"] {
            let (status, _, _) = try await Self.get(host, path)
            #expect(status == 200, "\(path)")
        }
        for path in [".env", ".git/config", "WALKTHROUGH.md", "assets/unnamed.txt", "beats/orphan.json", "assets/.hidden"] {
            let (status, _, body) = try await Self.get(host, path)
            #expect(status == 404, "\(path)")
            #expect(!body.contains("SECRET") && !body.contains("spoilers") && !body.contains("[core]"), "\(path): \(body)")
        }
        #expect(log.all.contains { $0.contains("/.env from 127.0.0.1: hidden files are not served (HTTP 404)") }, "\(log.all)")
        #expect(log.all.contains { $0.contains("/WALKTHROUGH.md from 127.0.0.1: not a file of the story") }, "\(log.all)")
        await host.end()
    }

    @Test func aBigFileIsStreamedWithAnETagAndRevalidatedWith304() async throws {
        let folder = try Self.package()
        let big = (0..<(12 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try Data(big).write(to: folder.dir.url.appendingPathComponent("assets/pic.txt"))
        let host = try await startHost(folder)
        var request = HTTPClientRequest(url: host.joinURL + "assets/pic.txt")
        request.headers.add(name: "Authorization", value: "Bearer \(Self.token)")
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        #expect(response.status.code == 200)
        #expect(response.headers.first(name: "content-length") == String(big.count))
        // Streamed: the body arrives in the host's chunks, not as one buffer of the whole file.
        var received: [UInt8] = []
        var parts = 0
        for try await part in response.body {
            received.append(contentsOf: part.readableBytesView)
            parts += 1
        }
        #expect(received == big)
        #expect(parts >= big.count / PackageFiles.chunkSize / 4, "\(parts) parts")
        let etag = try #require(response.headers.first(name: "etag"))
        let (status, headers, body) = try await Self.get(host, "assets/pic.txt", headers: [("If-None-Match", etag)])
        #expect(status == 304)
        #expect(body.isEmpty)
        #expect(headers.first(name: "etag") == etag)
        // Changed on disk: a new ETag, the whole file again.
        try Data("new picture".utf8).write(to: folder.dir.url.appendingPathComponent("assets/pic.txt"))
        let (changed, changedHeaders, changedBody) = try await Self.get(host, "assets/pic.txt", headers: [("If-None-Match", etag)])
        #expect(changed == 200 && changedBody == "new picture")
        #expect(changedHeaders.first(name: "etag") != etag)
        await host.end()
    }

    @Test func aFileOverTheFormatsLimitIsRefused() async throws {
        let folder = try Self.package()
        try Data(count: 5 << 20).write(to: folder.dir.url.appendingPathComponent("beats/later.json"))
        let log = Lines()
        let host = try await startHost(folder, log: { log.append($0) })
        let (status, _, body) = try await Self.get(host, "beats/later.json")
        #expect(status == 403)
        #expect(body.contains("over the limit of 4 MB"), "\(body)")
        await host.end()
    }
}
