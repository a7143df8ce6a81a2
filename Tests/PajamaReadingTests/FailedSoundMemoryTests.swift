import Foundation
import PajamaHTTP
import PajamaLoading
import PajamaModel
import PajamaReading
import PajamaTestSupport
import Testing

/// A sound that fails to load is remembered for the page visit: tapping again does not ask the server
/// again (a refusing server was asked once per tap); entering the page again tries again. Against a real
/// web server on 127.0.0.1 that refuses the sound (HTTP 403), as in the report.
@MainActor @Suite(.serialized) struct FailedSoundMemoryTests {
    let tap = try! AssetPath(validating: "assets/tap.wav")

    private func serve() async throws -> (TemporaryDirectory, TestHTTPServer) {
        let dir = try TemporaryDirectory(prefix: "pajama-failed-sound")
        try dir.write("story.json", """
        {"format":1,"id":"failing","title":"Failing","version":"1","startBeatId":"start","beats":["start"],
         "presentation":{"lineByLine":true}}
        """)
        try dir.write("beats/start.json", """
        {"id":"start","pages":[
          {"id":"text","type":"text","lines":["one","two","three","four","five","six"],
           "tools":[{"name":"sound_effect","args":{"sound_url":"assets/tap.wav","trigger":"tap"}}]},
          {"id":"after","type":"text","lines":["after"]}]}
        """)
        try dir.write("assets/tap.wav", Data(TestSound.wav(seconds: 0.1)))
        return (dir, try await TestHTTPServer(root: dir.url, options: .init(statuses: ["assets/tap.wav": 403])))
    }

    @Test func aFailedTapSoundIsAskedForOncePerPageVisit() async throws {
        let (dir, server) = try await serve()
        defer { server.stopSoon(); dir.remove() }
        let retry = RetryPolicy(attempts: 2, baseDelay: .milliseconds(10), maximumDelay: .milliseconds(20),
                                progressTimeout: .seconds(20), deadline: .seconds(60))
        let content = try await StoryContentManager.open(
            source: HTTPStorySource(baseURL: URL(string: server.baseURL)!), diskCache: nil,
            decodeImage: { _, _ in .textArt(lines: []) }, sound: .test, preloading: false, retry: retry)
        let viewModel = ReaderViewModel(content: content, sound: .test, progress: nil)
        let log = NavigatorEventLog(viewModel.events())
        let tap = tap
        /// Answered when the `n`th skip of the tap sound arrives.
        func skipsReach(_ n: Int) async -> Bool { await log.waitFor { $0.filter { $0 == .soundSkipped(tap, .tap) }.count >= n } }
        var skipped: Int { log.events.filter { $0 == .soundSkipped(tap, .tap) }.count }
        await viewModel.start()
        #expect(viewModel.location?.pageId == "text")

        // The first tap loads the sound (with the policy's retries) and fails.
        await viewModel.changePage(.advance)
        #expect(await skipsReach(1) && skipped == 1)
        let firstVisit = server.requestCount(for: "assets/tap.wav")
        #expect(firstVisit >= 1)
        // More taps on the same visit: skipped at once, the server is not asked again.
        for tap in 2...4 {
            await viewModel.changePage(.advance)
            #expect(await skipsReach(tap) && skipped == tap)
        }
        #expect(server.requestCount(for: "assets/tap.wav") == firstVisit, "asked again on the same page visit")

        // Leaving and entering the page again is a new visit: it tries again. (Entered at its first line:
        // a tap that left the page would cancel its own sound, which could never play there.)
        var taps = 4
        while viewModel.location?.pageId == "text" {
            await viewModel.changePage(.advance)
            taps += 1
        }
        #expect(await skipsReach(taps) && skipped == taps)
        await viewModel.navigateToLocation(StoryLocation(beatId: "start", pageId: "text"))
        #expect(viewModel.location == StoryLocation(beatId: "start", pageId: "text"))
        let before = server.requestCount(for: "assets/tap.wav")
        await viewModel.changePage(.advance)
        #expect(await skipsReach(taps + 1) && skipped == taps + 1)
        #expect(server.requestCount(for: "assets/tap.wav") > before, "a new visit tries again")
    }
}
