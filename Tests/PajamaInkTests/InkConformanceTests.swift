import Foundation
import PajamaInk
import Testing

/// The conformance corpus (../shared/ink-conformance beside the project, or $INK_CONFORMANCE_DIR): 176 compiled
/// stories from the inkjs test suite. Every runtime story must load and play to its end or its choices along
/// a fixed choice sequence without a crash or a hang; a few have their expected text checked here. The
/// line-by-line comparison with the reference runtime is scripts/ink-bink.sh (docs/ink.md).
@Suite(.enabled(
    if: InkCorpus.directory != nil,
    "ink conformance corpus not found: put it at ../shared/ink-conformance beside the project or set INK_CONFORMANCE_DIR"
))
struct InkConformanceTests {
    static var runtimeStories: [String] { InkCorpus.runtimeStories }
    static func text(of relative: String) throws -> String { try InkCorpus.text(of: relative) }

    @Test func theCorpusHoldsTheRuntimeStories() {
        #expect(Self.runtimeStories.count >= 160)
    }

    @Test(arguments: runtimeStories)
    func playsToTheEnd(_ relative: String) throws {
        let story = try Story(json: Self.text(of: relative), seed: 7)
        story.allowExternalFunctionFallbacks = true
        var errors: [String] = []
        story.onError = { message, kind in if kind == .error { errors.append(message) } }
        var picks = 0
        var lines = 0
        while errors.isEmpty {
            while story.canContinue && lines < 2000 {
                do {
                    _ = try story.continueStory()
                } catch {
                    // An unbound EXTERNAL without a fallback is thrown to the game, as in ink.
                    errors.append(error.message)
                    break
                }
                lines += 1
            }
            let choices = story.currentChoices
            if choices.isEmpty || picks >= 20 || lines >= 2000 { break }
            try story.chooseChoiceIndex(picks % choices.count)
            picks += 1
        }
        #expect(lines < 2000, "\(relative) did not stop")
        // Saving and loading mid-story must round-trip.
        let saved = story.saveStateJSON()
        let reloaded = try Story(json: Self.text(of: relative), seed: 7)
        try reloaded.loadStateJSON(saved)
        #expect(reloaded.saveStateJSON() == saved, "\(relative): the state does not round-trip")
    }

    /// Expected text as the inkjs specs (and bink) give it.
    @Test func sequencesShufflesAndCycles() throws {
        let story = try Story(json: Self.text(of: "sequences/all_sequence_types.ink.json"), seed: 7)
        #expect(try story.continueMaximally() == """
            Once: one two
            Stopping: one two two two
            Default: one two two two
            Cycle: one two one two
            Shuffle: one two two one
            Shuffle stopping: two one final final
            Shuffle once: one two

            """)
    }

    @Test func helloWorld() throws {
        let story = try Story(json: Self.text(of: "misc/hello_world.ink.json"), seed: 7)
        #expect(try story.continueStory() == "Hello world\n")
    }
}

/// Where the conformance corpus is, and its runtime stories.
enum InkCorpus {
    static var directory: URL? {
        let fm = FileManager.default
        if let env = ProcessInfo.processInfo.environment["INK_CONFORMANCE_DIR"], fm.fileExists(atPath: env) {
            return URL(fileURLWithPath: env)
        }
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let candidate = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/ink-conformance")
        return fm.fileExists(atPath: candidate.appendingPathComponent("compiled").path) ? candidate : nil
    }

    static var runtimeStories: [String] {
        guard let compiled = directory?.appendingPathComponent("compiled") else { return [] }
        let enumerator = FileManager.default.enumerator(atPath: compiled.path)
        var found: [String] = []
        while let relative = enumerator?.nextObject() as? String {
            if relative.hasSuffix(".ink.json") && !relative.split(separator: "/").contains("compiler") {
                found.append(relative)
            }
        }
        return found.sorted()
    }

    static func text(of relative: String) throws -> String {
        try String(contentsOf: directory!.appendingPathComponent("compiled").appendingPathComponent(relative), encoding: .utf8)
    }
}
