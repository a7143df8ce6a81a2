import Foundation
import PajamaLoading
import PajamaModel
import PajamaHTTP
import PajamaTestSupport
import Testing

/// A server that cannot be reached is said at once, with its address, as an error of its own: connection
/// refused and no such host are neither a timeout nor a "network problem", and are not retried by
/// themselves (docs/loading.md, "When the server cannot be reached"). Before, the client tried to connect
/// again until the 10 s progress timeout, and the reader saw "timed out: no data arrived for 10 s".
@Suite struct HTTPUnreachableTests {
    static func failure(_ url: String, _ path: String = "story.json") async -> StorySourceError? {
        let source = HTTPStorySource(baseURL: URL(string: url)!, progressTimeout: .seconds(60))
        do throws(StorySourceError) {
            _ = try await source.read(path)
            return nil
        } catch {
            return error
        }
    }

    @Test func aRefusedConnectionIsUnreachableWithTheAddressNotATimeout() async throws {
        let closed = try ClosedPort()
        defer { closed.close() }
        let port = closed.port
        // With a 60 s progress timeout, only the refusal itself can end the read before a minute.
        let error = try #require(await Self.failure("http://127.0.0.1:\(port)/tale/"))
        #expect(error == .unreachable(path: "story.json", reason: "connection refused by 127.0.0.1:\(port)"))
        #expect(error.description == "story.json: connection refused by 127.0.0.1:\(port)")
        let asset = AssetLoadError(error)
        #expect(asset.kind == .unreachable)
        #expect(!asset.isTransient)
        #expect(asset.readerMessage == "story.json could not be fetched: connection refused by 127.0.0.1:\(port).")
    }

    @Test func anUnknownHostIsUnreachableByName() async throws {
        // .invalid never resolves (RFC 6761): resolvers answer at once that there is no such name.
        let error = try #require(await Self.failure("http://pajama-test.invalid/tale/"))
        #expect(error == .unreachable(path: "story.json", reason: "no such host: pajama-test.invalid"))
    }

    @Test func openingAStoryThatCannotBeReachedSaysSo() async throws {
        let closed = try ClosedPort()
        defer { closed.close() }
        let port = closed.port
        let source = HTTPStorySource(baseURL: URL(string: "http://127.0.0.1:\(port)/")!, progressTimeout: .seconds(60))
        await #expect {
            _ = try await StoryContentManager.open(source: source, diskCache: nil, decodeImage: { _, _ throws(AssetLoadError) in
                .textArt(lines: [])
            }, sound: nil, preloading: false, retry: HTTPIntegrationTests.quickRetry)
        } throws: { error in
            (error as? AssetLoadError)?.kind == .unreachable
                && "\(error)" == "story.json could not be fetched: connection refused by 127.0.0.1:\(port)."
        }
    }
}
