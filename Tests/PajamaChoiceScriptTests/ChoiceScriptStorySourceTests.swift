import Foundation
import PajamaModel
import PajamaFormats
import PajamaStoryFormat
import PajamaTestSupport
import Testing
@testable import PajamaChoiceScriptBridge

/// The ChoiceScript bridge: which folders are games, a game read as a story source (stops as beats), its
/// pages, resuming, and validation.
@Suite struct ChoiceScriptStorySourceTests {
    static let startup = """
        *title The Grove
        *author Ann
        *scene_list
          startup
          grove
        *create courage 10
        You stand at the [b]edge[/b] of the wood.
        *choice
          #Go in.
            *set courage %+ 50
            *finish
          *selectable_if (courage > 90) #Run through.
            *finish
        """
    static let grove = """
        Trees, and courage ${courage}.
        *page_break
        *image pictures/oak.png center An old oak
        Deeper.
        *ending
        """

    private func game(_ layout: String = "scenes/", _ files: [String: String] = [:]) throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory(prefix: "pajama-choicescript")
        for (name, text) in files.isEmpty ? ["startup.txt": Self.startup, "grove.txt": Self.grove] : files {
            _ = try directory.write(layout + name, text)
        }
        return directory
    }

    @Test func aScenesFolderTheGameFolderAndAWebCheckoutAreGames() throws {
        for layout in ["scenes/", "", "web/mygame/scenes/"] {
            let directory = try game(layout)
            defer { directory.remove() }
            let found = try #require(FormatRegistry.all.find(at: directory.path), "layout \(layout)")
            #expect(found.format.name == "choicescript")
            #expect(found.files == ["scenes/startup.txt", "scenes/grove.txt"] || (layout.isEmpty && found.files == ["startup.txt", "grove.txt"]))
            if layout == "scenes/" {
                // The scenes folder itself names the game whose folder is the one above (its pictures are there).
                let inner = try #require(FormatRegistry.all.find(at: directory.path + "/scenes"))
                #expect(inner.folder == found.folder)
            }
        }
        let plain = try TemporaryDirectory(prefix: "pajama-choicescript-not")
        defer { plain.remove() }
        _ = try plain.write("startup.txt", "Just some notes.\n")
        #expect(ChoiceScriptFormat().find(at: plain.path) == nil)
    }

    @Test func stopsAreBeatsWithPagesAndDimmedUntakeableOptions() async throws {
        let directory = try game()
        defer { directory.remove() }
        let source = await StorySources.open(directory.path, seed: 3)
        let manifest = try StoryDecoder.decodeManifest(try await source.read("story.json"))
        #expect(manifest.title == "The Grove")
        #expect(manifest.author == "Ann")
        let start = try StoryDecoder.decodeBeat(try await source.read("beats/start.json"), file: "start")
        #expect(start.pages.first?.kind == .title(title: "The Grove", subtitle: "by Ann"))
        guard case .choice(let prompt, let choices)? = start.pages.last?.kind else { Issue.record("no choice page"); return }
        #expect(prompt == "You stand at the edge of the wood.")
        #expect(choices.map(\.text) == ["Go in.", "Run through."])
        // The option whose *selectable_if is false is dimmed, and leads back to the same beat.
        #expect(choices[1].targetBeatId == "start")
        #expect(start.pages.last?.marks(ofLine: 1)?.spans.contains { $0.attributes.contains(.dim) } == true)
        let next = try StoryDecoder.decodeBeat(try await source.read("beats/\(choices[0].targetBeatId).json"), file: "next")
        let texts = next.pages.compactMap { page -> [String]? in if case .text(let lines) = page.kind { lines } else { nil } }
        // *page_break turns the page; the picture comes with the line after it.
        #expect(texts.first == ["Trees, and courage 55."])
        #expect(next.pages.contains { $0.imageUrl?.value == "pictures/oak.png" && $0.imageAlt == "An old oak" })
        #expect(next.origin?.stopped == nil)
    }

    @Test func aTypedAnswerIsAQuestionPageWhoseAnswerNamesTheNextBeatAndResumes() async throws {
        let directory = try game("scenes/", ["startup.txt": "*create name \"\"\nWho are you?\n*input_text name\nWelcome, ${name}.\n*choice\n  #On.\n    Onward, ${name}.\n    *ending\n"])
        defer { directory.remove() }
        let source = try #require(ChoiceScriptStorySource.local(directory.path, seed: 2))
        let start = try #require(try await source.madeBeat("start"))
        guard case .question(let question)? = start.pages.last?.kind else { Issue.record("no question page: \(start.pages)"); return }
        #expect(question.label == "Who are you?")
        #expect(question.kind == .text(allowsBlank: false))
        #expect(question.testAnswer == "blah blah")
        // The beat the answer names is made from the answer, and goes on from there.
        let welcome = try #require(try await source.madeBeat(question.beatId(answering: "  Ada Lovelace ")))
        guard case .choice(let prompt, let choices)? = welcome.pages.last?.kind else { Issue.record("no choice page"); return }
        #expect(prompt == "Welcome, Ada Lovelace.")
        #expect(welcome.origin?.steps == [BeatOrigin.answered])
        #expect(welcome.origin?.answers == ["Ada Lovelace"])
        let end = try #require(try await source.madeBeat(choices[0].targetBeatId))
        let origin = try #require(end.origin)
        #expect(origin.moves == [.answer("Ada Lovelace"), .choice(0)])
        // It survives its JSON (a made beat read as a file).
        let decoded = try StoryDecoder.decodeBeat(StoryEncoder.encode(start), file: "start")
        #expect(decoded.pages == start.pages)
        #expect(try StoryDecoder.decodeBeat(StoryEncoder.encode(end), file: "end").origin == origin)
        // A fresh source finds the place by replaying the answer and the choice (no state of this version).
        let again = try #require(ChoiceScriptStorySource.local(directory.path, seed: 2))
        let restored = await again.restore(BeatOrigin(seed: origin.seed, steps: origin.steps, version: "another", answers: origin.answers))
        #expect(restored == .restored || restored == .restoredAnew)
        #expect(try await again.madeBeat(end.id)?.pages == end.pages)
    }

    @Test func aBugStopsTheBeatWithItsMessage() async throws {
        let directory = try game("scenes/", ["startup.txt": "*create x 2\nBefore.\n*bug x was ${x}\n"])
        defer { directory.remove() }
        let source = await StorySources.open(directory.path, seed: 1)
        let start = try StoryDecoder.decodeBeat(try await source.read("beats/start.json"), file: "start")
        #expect(start.origin?.stopped == "startup line 3: Bug: x was 2")
        #expect(start.pages.last?.kind == .text(lines: ["The game stopped: startup line 3: Bug: x was 2"]))
    }

    @Test func aSavedPlaceResumesFromItsStateOrByReplaying() async throws {
        let directory = try game()
        defer { directory.remove() }
        let source = try #require(ChoiceScriptStorySource.local(directory.path, seed: 3))
        let start = try #require(try await source.madeBeat("start"))
        guard case .choice(_, let choices)? = start.pages.last?.kind else { Issue.record("no choice page"); return }
        let next = try #require(try await source.madeBeat(choices[0].targetBeatId))
        let origin = try #require(next.origin)
        #expect(origin.steps == [0])
        #expect(origin.state != nil)
        // A fresh source (the program started again) finds the place from the saved state, or by replaying.
        for saved in [origin, BeatOrigin(seed: origin.seed, steps: origin.steps, version: "another version")] {
            let again = try #require(ChoiceScriptStorySource.local(directory.path, seed: 9))
            let restored = await again.restore(saved)
            #expect(restored == .restored || restored == .restoredAnew)
            let beat = try #require(try await again.madeBeat(next.id))
            #expect(beat.pages == next.pages)
        }
    }

    @Test func validateNamesProblemsBySceneAndLine() async throws {
        let directory = try game("scenes/", [
            "startup.txt": "*create known 1\nText.\n*goto counting\n*script x()\n*choice\n*goto_scene grove\n",
            "grove.txt": "*set unknown 1\n*ending\n",
        ])
        defer { directory.remove() }
        let source = try #require(ChoiceScriptStorySource.local(directory.path))
        let report = try #require(await source.validateItself(probe: NoProbe()))
        let messages = report.findings.map(\.message)
        #expect(messages.contains("startup line 3: no label \"counting\""), "\(messages)")
        #expect(messages.contains("startup line 5: *choice has no options (expected indented #options after it)"))
        #expect(messages.contains("grove line 1: the variable \"unknown\" is used before any *create or *temp"))
        #expect(report.findings.contains { $0.severity == .warning && $0.message.contains("*script is never run") })
        #expect(report.exitCode == 1)
    }

    @Test func theScenesATextNamesAreFoundAsChoiceScriptCutsItsLines() {
        let text = [
            "*title A\r", "*Scene_List\r", "  startup\r", "", "  $ grove\r", "\tcave", "*create x 1",
            "Some text with *goto_scene words in it.", "  *GOTO_SCENE river label", "*gosub_scene {name}",
            "*goto_scene  spaced", "  *if x", "    *gosub_scene hill\r", "*goto_scene [b]odd", "*goto_scenex nope",
            "\u{A0}*goto_scene shore", "*goto_scene last",
        ].joined(separator: "\n")
        #expect(ChoiceScriptScan.namedScenes(in: text) == ["startup", "grove", "cave", "river", "spaced", "hill", "shore", "last"])
        #expect(ChoiceScriptScan.namedScenes(in: "") == [])
        #expect(ChoiceScriptScan.namedScenes(in: "*scene_list\n  a\n  b") == ["a", "b"])
    }

    struct NoProbe: AssetProbe {
        func problemWithSound(_ path: AssetPath, _ bytes: [UInt8]) -> String? { nil }
        func problemWithImage(_ path: AssetPath, _ bytes: [UInt8]) -> String? { nil }
    }
}
