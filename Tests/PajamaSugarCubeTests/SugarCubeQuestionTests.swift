import Foundation
import PajamaModel
import PajamaSugarCube
import PajamaTwine
import Testing
@testable import PajamaSugarCubeBridge

/// SugarCube's input fields (`<<textbox>>`, `<<numberbox>>`, `<<textarea>>`) as the reader's question pages
/// (docs/sugarcube.md, "Typed answers"): the page's text stops at the field, the answer goes into the variable
/// as SugarCube's field puts it (numberbox-textbox.js), and the rest of the page follows.
@Suite struct SugarCubeQuestionTests {
    static let twee = """
    :: Start
    <<set $seen to "no">>It's Friday night.
    Name your friend <<textbox "$name" "Brittany">>
    How old is she? <<numberbox "$age" 20>>
    She is $name, <<print $age + 1>> next year.
    [[On|Next]]

    :: Next
    Hello, $name (<<print typeof $age>> <<print $age + 1>>). <<textbox "$pet" "" "Pet">>

    :: Pet
    Your pet is called "$pet".
    """

    @Test func aFieldIsAQuestionAndTheAnswerIsTheVariables() throws {
        let runtime = try sugarCube(Self.twee)
        let start = runtime.start()
        // The text stops at the field; the field set its variable to its default (the text after it shows it).
        #expect(start.text == ["It's Friday night.", "Name your friend"])
        #expect(start.question == SugarCubeInput(id: 0, variable: "$name", kind: .text, defaultValue: "Brittany"))
        #expect(start.links.isEmpty && !start.isEnding)
        #expect(throws: SugarCubeChoiceError.self) { try runtime.choose(0) }
        let age = try runtime.answer("Ada")
        #expect(age.text == ["How old is she?"])
        #expect(age.question?.kind == .number)
        #expect(age.question?.defaultValue == "20")
        #expect(throws: SugarCubeAnswerError.refused("Please type a number.")) { try runtime.answer("old") }
        let rest = try runtime.answer(" 41 ")
        #expect(rest.text == ["She is Brittany, 21 next year."], "the page was written with the defaults, as SugarCube's is")
        #expect(rest.question == nil)
        #expect(rest.labels == ["On"])
        #expect(throws: SugarCubeAnswerError.noQuestion) { try runtime.answer("more") }
        // The answers are the variables': a text, and a number for a numberbox.
        let next = try runtime.choose(0)
        #expect(next.text == ["Hello, Ada (number 42)."])
        // A field naming a passage goes there on the answer when the page offers no link (SugarCube's Enter).
        let pet = try runtime.answer("Rex")
        #expect(pet.passage == "Pet")
        #expect(pet.text == ["Your pet is called &quot;Rex&quot;."] || pet.text == ["Your pet is called \"Rex\"."])
    }

    @Test func aFieldWithoutItsArgumentsIsSugarCubesError() throws {
        let runtime = try sugarCube("""
        :: Start
        <<textbox "$name">> <<numberbox "$n" "many">> <<textbox "name" "x">>
        """)
        let moment = runtime.start()
        #expect(moment.question == nil)
        #expect(moment.text.joined().contains("Error: &lt;&lt;textbox&gt;&gt;: no default value specified") || moment.errors.contains { $0.hasSuffix("no default value specified") })
        #expect(moment.errors.count == 3, "\(moment.errors)")
        #expect(moment.errors.contains { $0.hasSuffix("default value \"many\" is neither a number nor can it be parsed into a number") })
        #expect(moment.errors.contains { $0.hasSuffix("variable name \"name\" is missing its sigil ($ or _)") })
    }

    @Test func theQuestionPageLeadsToTheAnswersBeatAndResumes() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sugarcube-question-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try (":: StoryData\n{\"ifid\": \"00000000-0000-4000-8000-000000000003\", \"format\": \"SugarCube\", \"start\": \"Start\"}\n\n" + Self.twee + "\n")
            .write(to: folder.appendingPathComponent("story.twee"), atomically: true, encoding: .utf8)
        let source = try #require(SugarCubeStorySource.local(folder.path, seed: 4))
        let start = try #require(try await source.madeBeat("start"))
        let question = try #require(start.pages.last?.question)
        #expect(question.label == "Name your friend")
        #expect(question.kind == .text(allowsBlank: true))
        #expect(question.automaticAnswer == "Brittany", "an untouched field's value is what a test types")
        let age = try #require(try await source.madeBeat(question.beatId(answering: " Ada ")))
        let number = try #require(age.pages.last?.question)
        #expect(number.label == "How old is she?")
        guard case .number = number.kind else { Issue.record("not a number question: \(number.kind)"); return }
        #expect(number.automaticAnswer == "20")
        #expect(number.problem(with: "old") != nil)
        let rest = try #require(try await source.madeBeat(number.beatId(answering: "41")))
        #expect(rest.origin?.moves == [.answer("Ada"), .answer("41")])
        guard case .choice(let prompt, let choices)? = rest.pages.last?.kind else { Issue.record("no choice page: \(rest.pages)"); return }
        #expect(prompt == "She is Brittany, 21 next year.")
        let next = try #require(try await source.madeBeat(choices[0].targetBeatId))
        #expect(next.pages.last?.question?.label == "Hello, Ada (number 42).")
        // An answer a number question does not take stops there, saying why.
        let refused = try #require(try await source.madeBeat(number.beatId(answering: "old")))
        #expect(refused.origin?.stopped?.contains("is not taken") == true)
        // A fresh source finds the place again by replaying the answers and the link.
        let origin = try #require(next.origin)
        let again = try #require(SugarCubeStorySource.local(folder.path, seed: 4))
        let restored = await again.restore(BeatOrigin(seed: origin.seed, steps: origin.steps, version: "another", answers: origin.answers))
        #expect(restored == .restored || restored == .restoredAnew)
        #expect(try await again.madeBeat(next.id)?.pages == next.pages)
    }
}
