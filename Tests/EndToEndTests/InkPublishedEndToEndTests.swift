import Foundation
import PajamaStorage
import PajamaTestSupport
import Testing

/// Ink stories as their authors publish them, on the real binary: external functions with and without an
/// ink fallback, and `pajama play`'s exit status 3 when the runtime stops (docs/ink.md).
@Suite struct InkPublishedEndToEndTests {
    let pajama = PackagePaths.executable("pajama").path

    func run(_ arguments: [String], home: TemporaryDirectory) throws -> ChildProcess.Result {
        var environment = ProcessInfo.processInfo.environment
        for (name, value) in Paths.environment(home: home.path) { environment[name] = value }
        return try ChildProcess.run(pajama, arguments, environment: environment)
    }

    /// A folder `story` in `home` holding `file` with `json`.
    func story(_ json: String, file: String = "story.ink.json", in home: TemporaryDirectory) throws -> String {
        try home.write("story/" + file, json)
        return home.path + "/story/" + file
    }

    @Test func playRunsAnExternalFunctionsInkFallback() throws {
        let home = try TemporaryDirectory(prefix: "pajama-ink-external")
        defer { home.remove() }
        let json = ##"{"inkVersion":21,"root":[["^Hello, ","ev",{"x()":"name"},"out","/ev","^!","\n",["done",{"#n":"g-0"}],null],"done",{"name":["ev","str","^traveller","/str","/ev","~ret",{"#f":1}]}],"listDefs":{}}"##
        let file = try story(json, in: home)
        let result = try run(["play", file], home: home)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Hello, traveller!\n"), "\(result.stdout)")
        #expect(try run(["validate", file], home: home).status == 0)
    }

    @Test func playExitsThreeWhenTheStoryNeedsAGamesFunction() throws {
        let home = try TemporaryDirectory(prefix: "pajama-ink-noexternal")
        defer { home.remove() }
        let json = ##"{"inkVersion":21,"root":[["^Score: ","ev",{"x()":"score"},"out","/ev","\n",["done",{"#n":"g-0"}],null],"done",null],"listDefs":{}}"##
        let file = try story(json, in: home)
        let result = try run(["play", file], home: home)
        #expect(result.status == 3, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("written for a game that provides the function \"score\""), "\(result.stdout)")
        #expect(!result.stdout.contains("The End"))
        #expect(result.stderr.contains("the story stopped at beat \"start\", page \"external\""), "\(result.stderr)")
        let validate = try run(["validate", file], home: home)
        #expect(validate.status == 0, "\(validate.stdout)")
        #expect(validate.stdout.contains("warning") && validate.stdout.contains("\"score\""), "\(validate.stdout)")
    }

    @Test func playExitsThreeAfterARuntimeError() throws {
        let home = try TemporaryDirectory(prefix: "pajama-ink-runtime-error")
        defer { home.remove() }
        let json = ##"{"inkVersion":21,"root":[["^Before the error.","\n","ev",1,0,"/","out","/ev","\n","end",null],"done",null],"listDefs":{}}"##
        let file = try story(json, in: home)
        let result = try run(["play", file], home: home)
        #expect(result.status == 3, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("Before the error.\n"))
        #expect(result.stdout.contains("The story stopped: story.ink.json: ink error"), "\(result.stdout)")
        #expect(!result.stdout.contains("The End"))
        #expect(result.stderr.contains("the story stopped at beat \"start\", page \"error\""), "\(result.stderr)")
    }
}
