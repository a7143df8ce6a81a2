import Foundation
import PajamaFormats
import PajamaLoading
import PajamaModel
import PajamaReader
import PajamaReading
import PajamaStorage
import PajamaTestSupport
import Testing

/// `pajama play`'s reading of a local story straight from its source (`ReaderApp.openHeadless`:
/// `DirectStoryContent`, the format's own runtime on the main actor) writes the transcript, and ends, exactly as
/// the loading engine's content (`StoryContentManager`, what play read through before) does, in every format;
/// and a long reading, whose moves never leave the main actor, loses no event of its transcript.
@MainActor @Suite struct PlayTranscriptTests {
    /// One reading: the transcript written and how it ended.
    struct Reading: Equatable {
        var transcript: String
        var outcome: ScriptedReading.Outcome
    }

    /// Reads `story` with `choices` through `content`, as `PlayRun` does, its transcript to a file in `home`.
    func read(_ content: any StoryContent, choices: [Int], answers: [String] = [], home: TemporaryDirectory, name: String) async throws -> Reading {
        let path = home.path + "/\(name).txt"
        let recorder = TranscriptRecorder(file: try TranscriptFile(path: path))
        let viewModel = ReaderViewModel(content: content, sound: nil, progress: nil)
        recorder.follow(viewModel)
        let outcome = await ScriptedReading.run(viewModel, choices: choices, answers: answers)
        await viewModel.close()
        #expect(recorder.finish() == nil)
        return Reading(transcript: try String(contentsOfFile: path, encoding: .utf8), outcome: outcome)
    }

    /// The reading of `story` both ways; they must be the same, and the headless one must be direct.
    func bothWays(_ story: String, choices: [Int], answers: [String] = [], home: TemporaryDirectory) async throws -> Reading {
        let paths = Paths(home: home.url)
        let direct = try await ReaderApp.openHeadless(await StorySources.open(story, seed: 7), paths: paths)
        #expect(direct is DirectStoryContent)
        let engine = try await ReaderApp.open(await StorySources.open(story, seed: 7), sound: nil, paths: paths, preloading: false)
        let ours = try await read(direct, choices: choices, answers: answers, home: home, name: "direct")
        let before = try await read(engine, choices: choices, answers: answers, home: home, name: "engine")
        #expect(ours == before)
        #expect(!ours.transcript.isEmpty)
        return ours
    }

    @Test func aPackageReadsAsThroughTheLoadingEngine() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-play-package")
        defer { home.remove() }
        let atlas = PackagePaths.stories.appendingPathComponent("clockwork-atlas").path
        let reading = try await bothWays(atlas, choices: [2, 1, 1, 1, 1, 2, 2], home: home)
        #expect(reading.transcript.hasSuffix("\nThe End\n"))
        // A choice out of range is refused at the same place both ways.
        let refused = try await bothWays(atlas, choices: [2, 4], home: home)
        #expect(refused.outcome == .choiceOutOfRange(number: 4, position: 2, offered: 3, at: StoryLocation(beatId: "atlas_speaks", pageId: "trail")))
    }

    @Test func anInkStoryReadsAsThroughTheLoadingEngine() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-play-ink")
        defer { home.remove() }
        let ferry = PackagePaths.stories.appendingPathComponent("ferry-cat/ferry-cat.ink.json").path
        let reading = try await bothWays(ferry, choices: [1, 1, 1, 1, 1, 1, 1, 1], home: home)
        #expect(reading.transcript.contains("> 1. "))
        // The same seed, the same random numbers: a story that draws them reads the same both ways.
        let loop = try home.write("loop.ink.json", InkStoryFixtures.randomLoop)
        let random = try await bothWays(loop.path, choices: Array(repeating: 1, count: 40), home: home)
        #expect(random.outcome == .choicesRanOut(given: 40, offered: 1, at: random.outcome.location))
    }

    @Test func aTwineStoryReadsAsThroughTheLoadingEngine() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-play-twine")
        defer { home.remove() }
        _ = try home.write("story/tide-mill.twee", TwineReadingTests.twee)
        _ = try home.write("story/images/mill.txt", "==[ MILL ART ]==\n")
        let reading = try await bothWays(home.path + "/story", choices: [1, 2, 1, 3], home: home)
        #expect(reading.transcript.contains("The water is cold and grey."))
    }

    @Test func aChoiceScriptGameWithTypedAnswersReadsAsThroughTheLoadingEngine() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-play-choicescript")
        defer { home.remove() }
        _ = try home.write("game/scenes/startup.txt", """
            *create name ""
            *create coins 0
            What is your name?
            *input_text name
            *choice
              #Dig, ${name}.
                *set coins +3
                You find ${coins} coins.
                *page_break
                *goto_scene shore
              #Rest.
                You rest.
                *ending
            """)
        _ = try home.write("game/scenes/shore.txt", "The shore, with ${coins} coins.\n*ending\n")
        let reading = try await bothWays(home.path + "/game", choices: [1], answers: ["Ada"], home: home)
        #expect(reading.transcript.contains("> typed: Ada"))
        #expect(reading.transcript.contains("You find 3 coins."))
        #expect(reading.transcript.contains("The shore, with 3 coins."))
    }

    @Test func aSugarCubeStoryReadsAsThroughTheLoadingEngine() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-play-sugarcube")
        defer { home.remove() }
        _ = try home.write("story/harbour.twee", """
            :: StoryTitle
            The Harbour

            :: StoryData
            {"ifid": "0C7E3F0A-5B7B-4B8E-9E55-2F3F6D1A9B11", "format": "SugarCube", "format-version": "2.36.1", "start": "Quay"}

            :: StoryInit
            <<set $nets to 2>>

            :: Quay
            The quay is wet. You hold $nets nets.
            [[Cast a net|Sea]]
            [[Go home|Home]]

            :: Sea
            <<set $nets -= 1>>One net is gone; $nets left.
            [[Back to the quay|Quay]]

            :: Home
            You sleep.
            """)
        let reading = try await bothWays(home.path + "/story", choices: [1, 1, 1, 1, 2], home: home)
        #expect(reading.transcript.contains("One net is gone; 1 left."))
        #expect(reading.transcript.contains("You sleep."))
    }

    /// 1,500 choices read without the main actor waiting once: every page and choice is in the transcript (a
    /// stream of events kept 1,024 and a task that never ran until the end would have lost most of them).
    @Test func aLongReadingLosesNoEventOfItsTranscript() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-play-long")
        defer { home.remove() }
        let loop = try home.write("loop.ink.json", InkStoryFixtures.randomLoop)
        let content = try await ReaderApp.openHeadless(await StorySources.open(loop.path, seed: 7), paths: Paths(home: home.url))
        let reading = try await read(content, choices: Array(repeating: 1, count: 1_500), home: home, name: "long")
        let lines = reading.transcript.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.filter { $0 == "> 1. Again" }.count == 1_500)
        #expect(lines.filter { $0 == "  1. Again" }.count == 1_501)
    }
}

extension ScriptedReading.Outcome {
    /// Where the reading stopped, for a test that knows how but not where.
    var location: StoryLocation {
        switch self {
        case .ending(let l, _), .stopped(let l, _), .choiceOutOfRange(_, _, _, let l), .choicesRanOut(_, _, let l),
            .answersRanOut(_, let l), .answerRefused(_, _, _, let l):
            l
        case .failed(let failure): failure.location
        case .noEnding(_, let l): l ?? StoryLocation(beatId: "", pageId: "")
        }
    }
}
