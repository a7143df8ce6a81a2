import Foundation
import PajamaLoading
import PajamaModel
import PajamaTestSupport
import Testing

/// A beat that a source makes (an ink story) reaches the storage tier as a value, not as JSON written and
/// parsed again, and is held to the rules of a beat file all the same.
@Suite struct MadeBeatTests {
    /// A source that makes its beats and counts what is read of it.
    actor MakingSource: StorySource {
        nonisolated let location = "made"
        nonisolated let isLocal = true
        nonisolated var makesBeats: Bool { true }
        let beats: [String: Beat]
        private(set) var reads: [String] = []
        private(set) var made: [String] = []

        init(_ beats: [Beat]) { self.beats = Dictionary(uniqueKeysWithValues: beats.map { ($0.id, $0) }) }
        init(_ beats: [String: Beat]) { self.beats = beats }

        func read(_ path: String) async throws(StorySourceError) -> [UInt8] {
            reads.append(path)
            let id = String(path.dropFirst("beats/".count).dropLast(".json".count))
            guard let beat = beats[id] else { throw .notFound(path: path) }
            return StoryEncoder.encode(beat)
        }

        func madeBeat(_ id: String) async throws(StorySourceError) -> Beat? {
            made.append(id)
            guard let beat = beats[id] else { throw .notFound(path: "beats/\(id).json") }
            return beat
        }
    }

    static func choices(_ count: Int) -> Page {
        Page(id: "c", kind: .choice(prompt: nil, choices: (0..<count).map { Choice(text: "way \($0)", targetBeatId: "b\($0)") }))
    }

    @Test func theStorageTierTakesAMadeBeatWithoutReadingItsFile() async throws {
        let made = Beat(id: "a", pages: [Page(id: "p", kind: .text(lines: ["Made."])), Self.choices(2)],
                        origin: BeatOrigin(seed: 3, steps: [0, -1], state: "{}", version: "ink-1"))
        let source = MakingSource([made])
        let storage = BeatStorageCoordinator(manifest: StoryManifest(id: "s", title: "S", startBeatId: "a"), source: source, disk: nil)
        #expect(try await storage.load("a") == made)
        #expect(await source.reads.isEmpty)
        #expect(await source.made == ["a"])
        await #expect(throws: AssetLoadError(.notFound, subject: "beat none", detail: "beats/none.json")) { try await storage.load("none") }
    }

    /// Beats that break one rule of a beat file each.
    static let badBeats: [(String, Beat)] = [
        ("ten choices", Beat(id: "a", pages: [choices(10)])),
        ("a long line", Beat(id: "a", pages: [Page(id: "p", kind: .text(lines: ["ok", String(repeating: "é", count: 10_001)]))])),
        ("a long choice", Beat(id: "a", pages: [Page(id: "c", kind: .choice(prompt: nil, choices: [Choice(text: String(repeating: "x", count: 10_001), targetBeatId: "b")]))])),
        ("choice not last", Beat(id: "a", pages: [choices(2), Page(id: "p", kind: .text(lines: ["after"]))])),
        ("a page id twice", Beat(id: "a", pages: [Page(id: "p", kind: .text(lines: ["1"])), Page(id: "p", kind: .text(lines: ["2"]))])),
        ("an empty page id", Beat(id: "a", pages: [Page(id: "", kind: .text(lines: ["1"]))])),
        ("no lines", Beat(id: "a", pages: [Page(id: "p", kind: .text(lines: []))])),
        ("no pages", Beat(id: "a", pages: [])),
        ("a bad target", Beat(id: "a", pages: [Page(id: "c", kind: .choice(prompt: nil, choices: [Choice(text: "go", targetBeatId: "no/way")]))])),
        ("a bad next", Beat(id: "a", pages: [Page(id: "p", kind: .text(lines: ["1"]))], nextBeatId: "")),
        ("another id", Beat(id: "b", pages: [Page(id: "p", kind: .text(lines: ["1"]))])),
        ("marks past the lines", Beat(id: "a", pages: [Page(id: "p", kind: .text(lines: ["1"]), marks: [LineMarks(line: 1)])])),
        ("a backward span", Beat(id: "a", pages: [Page(id: "p", kind: .text(lines: ["12"]), marks: [LineMarks(line: 0, spans: [TextSpan(from: 2, to: 1, attributes: .bold)])])])),
        ("a long title", Beat(id: "a", pages: [Page(id: "t", kind: .title(title: String(repeating: "t", count: 10_001), subtitle: nil))])),
        ("a bad step", Beat(id: "a", pages: [Page(id: "p", kind: .text(lines: ["1"]))], origin: BeatOrigin(seed: 1, steps: [0, -3]))),
    ]

    @Test(arguments: badBeats.map(\.0))
    func aMadeBeatIsRefusedAsItsFileWouldBe(_ name: String) async throws {
        let beat = try #require(Self.badBeats.first { $0.0 == name }?.1)
        var fromFile: StoryFormatError?
        do { _ = try StoryDecoder.decodeBeat(StoryEncoder.encode(beat), file: "beats/a.json", expectedId: "a") } catch { fromFile = error }
        let expected = try #require(fromFile)
        #expect(throws: expected) { try StoryDecoder.check(beat, file: "beats/a.json", expectedId: "a") }
        // And the storage tier says so as it does of a bad file.
        let storage = BeatStorageCoordinator(manifest: StoryManifest(id: "s", title: "S", startBeatId: "a"), source: MakingSource(["a": beat]), disk: nil)
        await #expect(throws: AssetLoadError(.invalidFormat, subject: "beat a", detail: expected.description)) {
            try await storage.load("a")
        }
    }

    @Test func aGoodMadeBeatPasses() throws {
        let beat = Beat(id: "a", pages: [Page(id: "t", kind: .title(title: "T", subtitle: "S")),
                                         Page(id: "p", kind: .text(lines: ["12"]), marks: [LineMarks(line: 0, spans: [TextSpan(from: 0, to: 2, attributes: .bold)], breaks: [1])]),
                                         Self.choices(9)], nextBeatId: nil, origin: BeatOrigin(seed: 1, steps: [0, -1, 3]))
        try StoryDecoder.check(beat, file: "beats/a.json", expectedId: "a")
        #expect(try StoryDecoder.decodeBeat(StoryEncoder.encode(beat), file: "beats/a.json", expectedId: "a") == beat)
    }
}
