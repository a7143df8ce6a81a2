import Foundation
import PajamaTestSupport

/// A generated branching story on disk: `count` beats, every third one a choice of 2-3 forward targets
/// (branches rejoin), a fixed seed so every run reads the same story. `pageExtras` adds members to
/// each beat's first page (a picture, sounds: `AssetRaceScenario`).
enum GeneratedStory {
    static func write(count: Int, to dir: TemporaryDirectory, pageExtras: (Int) -> String = { _ in "" }) throws {
        var rng = SeededGenerator(seed: 42)
        let ids = (0..<count).map { "b\($0)" }
        try dir.write("story.json", "{\"format\":1,\"id\":\"generated\",\"title\":\"Generated\",\"startBeatId\":\"b0\"}")
        for i in 0..<count {
            let text = (0..<3).map { "\"Line \($0) of beat \(i): the road goes on, and the lanterns sway in the wind.\"" }.joined(separator: ",")
            var pages = "{\"id\":\"p1\",\"type\":\"text\",\"lines\":[\(text)]\(pageExtras(i))}"
            var tail = ""
            if i + 1 >= count {
                tail = ""
            } else if i % 3 == 2 {
                let targets = Set((0..<Int.random(in: 2...3, using: &rng)).map { _ in min(count - 1, i + Int.random(in: 1...6, using: &rng)) })
                let choices = targets.sorted().map { "{\"text\":\"Go to \($0)\",\"targetBeatId\":\"\(ids[$0])\"}" }.joined(separator: ",")
                pages += ",{\"id\":\"c\",\"type\":\"choice\",\"choices\":[\(choices)]}"
            } else {
                tail = ",\"nextBeatId\":\"\(ids[i + 1])\""
            }
            try dir.write("beats/\(ids[i]).json", "{\"id\":\"\(ids[i])\",\"pages\":[\(pages)]\(tail)}")
        }
    }
}

extension GeneratedStory {
    /// A generated story of `count` beats in a fresh folder, served by a real HTTP server on 127.0.0.1
    /// that adds `latency` seconds to every response.
    struct Served {
        let folder: TemporaryDirectory
        let server: TestHTTPServer
        var baseURL: URL { URL(string: server.baseURL)! }

        init(count: Int, latency: Double = 0) async throws {
            folder = try TemporaryDirectory(prefix: "pajama-bench-story")
            do {
                try GeneratedStory.write(count: count, to: folder)
                server = try await TestHTTPServer(root: folder.url, options: .init(latency: .milliseconds(Int(latency * 1000))))
            } catch {
                folder.remove()
                throw error
            }
        }

        /// Stops the server (without waiting for its port to close) and removes the folder.
        func stop() {
            server.stopSoon()
            folder.remove()
        }
    }
}
