import Foundation
import PajamaModel
import PajamaSugarCube
import PajamaSugarCubeBridge
import PajamaTwine
import Testing

/// A script that never ends is stopped by the engine's time limit, and the page says where.
@Suite struct SugarCubeRunawayTests {
    @Test func aRunawaySetStopsWithinASecondNamingItsPassage() throws {
        let runtime = try sugarCube("""
        :: Start
        [[Loop]]

        :: Loop
        Before. <<set $x to (function () { while (true) {} })()>>
        """)
        _ = runtime.start()
        let started = ContinuousClock.now
        let moment = try runtime.choose(0)
        #expect(ContinuousClock.now - started < .seconds(2))
        #expect(moment.passage == "Loop")
        #expect(moment.error == "<<set>> ran longer than 1 s and was stopped")
        #expect(moment.links.isEmpty)
    }

    @Test func aRunawayStoryJavaScriptStopsTheStartNamingTheScript() throws {
        let started = ContinuousClock.now
        let runtime = try sugarCube("""
        :: Loops [script]
        let n = 0; while (true) { n++; }

        :: Start
        Never shown.
        """)
        let moment = runtime.start()
        #expect(ContinuousClock.now - started < .seconds(2))
        #expect(moment.error == "the Story JavaScript (passage \"Loops\") ran longer than 1 s and was stopped")
    }

    @Test func theBeatOfARunawayScriptSaysTheStoryStopped() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sugarcube-runaway-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try """
        :: StoryData
        {"ifid": "00000000-0000-4000-8000-000000000001", "format": "SugarCube", "start": "Start"}

        :: Start
        <<run while (true) {}>>
        """.write(to: folder.appendingPathComponent("loop.twee"), atomically: true, encoding: .utf8)
        let source = try #require(SugarCubeStorySource.local(folder.appendingPathComponent("loop.twee").path, seed: 1))
        let beat = try StoryDecoder.decodeBeat(try await source.read("beats/start.json"), file: "start")
        #expect(beat.origin?.stopped == "loop.twee in passage \"Start\": <<run>> ran longer than 1 s and was stopped")
    }
}
