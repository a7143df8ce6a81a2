import Foundation
import PajamaStorage
import PajamaTestSupport
import Testing

/// A ChoiceScript game on the real binary: `play` takes its choices, exits 3 at a `*bug`, and `validate`
/// names problems by scene and line and exits 1 (docs/choicescript.md).
@Suite struct ChoiceScriptEndToEndTests {
    let pajama = PackagePaths.executable("pajama").path

    func run(_ arguments: [String], home: TemporaryDirectory) throws -> ChildProcess.Result {
        var environment = ProcessInfo.processInfo.environment
        for (name, value) in Paths.environment(home: home.path) { environment[name] = value }
        return try ChildProcess.run(pajama, arguments, environment: environment)
    }

    @Test func playTakesChoicesAndABugExitsThree() throws {
        let home = try TemporaryDirectory(prefix: "pajama-choicescript-e2e")
        defer { home.remove() }
        _ = try home.write("game/scenes/startup.txt", """
            *create gold 0
            A chest.
            *choice
              #Open it.
                *set gold + 5
                You find ${gold} coins.
                *ending
              #Kick it.
                *bug the chest was kicked
            """)
        let opened = try run(["play", home.path + "/game", "--choices", "1"], home: home)
        #expect(opened.status == 0, "\(opened.stdout)\(opened.stderr)")
        #expect(opened.stdout.contains("You find 5 coins."), "\(opened.stdout)")
        let kicked = try run(["play", home.path + "/game", "--choices", "2"], home: home)
        #expect(kicked.status == 3, "\(kicked.stdout)\(kicked.stderr)")
        #expect(kicked.stderr.contains("startup line 9: Bug: the chest was kicked"), "\(kicked.stderr)")
        #expect(try run(["validate", home.path + "/game"], home: home).status == 0)
    }

    @Test func playTypesTheAnswersGivenAndSaysWhenTheyRunOutOrAreRefused() throws {
        let home = try TemporaryDirectory(prefix: "pajama-choicescript-answers")
        defer { home.remove() }
        _ = try home.write("game/scenes/startup.txt", """
            *create name ""
            *create age 0
            What is your name?
            *input_text name
            How old are you, ${name}?
            *input_number age 1 120
            ${name}, aged ${age}, walks on.
            *ending
            """)
        let game = home.path + "/game"
        let played = try run(["play", game, "--answers", "Ada\\, Countess,36"], home: home)
        #expect(played.status == 0, "\(played.stdout)\(played.stderr)")
        #expect(played.stdout.contains("> typed: Ada, Countess"), "\(played.stdout)")
        #expect(played.stdout.contains("Ada, Countess, aged 36, walks on."), "\(played.stdout)")
        let short = try run(["play", game, "--answers", "Ada"], home: home)
        #expect(short.status == 1, "\(short.stdout)\(short.stderr)")
        #expect(short.stderr.contains("the answers ran out after 1"), "\(short.stderr)")
        let refused = try run(["play", game, "--answers", "Ada,200"], home: home)
        #expect(refused.status == 1, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stderr.contains("answer 2 is \"200\"") && refused.stderr.contains("from 1 to 120"), "\(refused.stderr)")
    }

    @Test func validateExitsOneNamingSceneAndLine() throws {
        let home = try TemporaryDirectory(prefix: "pajama-choicescript-validate")
        defer { home.remove() }
        _ = try home.write("game/scenes/startup.txt", "*title Bad\nHello.\n*goto counting\n")
        let result = try run(["validate", home.path + "/game"], home: home)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("startup line 3: no label \"counting\""), "\(result.stdout)")
    }
}
