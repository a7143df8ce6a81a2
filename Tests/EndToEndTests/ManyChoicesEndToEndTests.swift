import Foundation
import PajamaStorage
import PajamaTestSupport
import Testing

/// An ink story offering 20 choices at once (issue 35, item 3) on the real binary: `pajama play --choices 20`
/// and plain mode take the twentieth, `validate` follows every one (the story's choices were cut to 9 before).
@Suite(.serialized) struct ManyChoicesEndToEndTests {
    let pajama = PackagePaths.executable("pajama").path

    /// The ink story of ManyChoicesTests.menu, by hand: "Who did it?", then "Suspect 1" ... "Suspect 20".
    static func menu(_ count: Int) -> String {
        let choices = (0..<count).map { ##""ev","str","^Suspect \##($0 + 1)","/str","/ev",{"*":"0.c-\##($0)","flg":20}"## }
        let targets = (0..<count).map { ##""c-\##($0)":["^You asked suspect \##($0 + 1).","\n","end",{"#f":5}]"## }
        return ##"""
            {"inkVersion":21,"root":[["#","^title: Twenty Suspects","/#","^The rain had not stopped.","\n","^Who did it?","\n",\##(choices.joined(separator: ",")),{\##(targets.joined(separator: ","))}],"done",null],"listDefs":{}}
            """##
    }

    func environment(_ home: TemporaryDirectory) -> [String: String] {
        var env = Paths.environment(home: home.path)
        for (k, v) in ["TERM": "xterm-256color", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "PULSE_SERVER": "unix:/nonexistent",
                       "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"] {
            env[k] = v
        }
        return env
    }

    @Test func playPlainModeAndValidateReachTheTwentiethChoice() throws {
        let home = try TemporaryDirectory(prefix: "pajama-many")
        defer { home.remove() }
        let file = try home.write("story/suspects.ink.json", Self.menu(20)).path
        let play = try ChildProcess.run(pajama, ["play", file, "--choices", "20"], environment: environment(home))
        #expect(play.status == 0, "\(play.stderr)")
        // The choices under the paragraph that leads to them (item 5), every one, and the twentieth taken.
        #expect(play.stdout.contains("Who did it?\n  1. Suspect 1\n"), "\(play.stdout)")
        #expect(play.stdout.contains("  20. Suspect 20\n> 20. Suspect 20\n"), "\(play.stdout)")
        #expect(play.stdout.contains("You asked suspect 20."), "\(play.stdout)")
        let beyond = try ChildProcess.run(pajama, ["play", file, "--choices", "21"], environment: environment(home))
        #expect(beyond.status == 1)
        #expect(beyond.stderr.contains("offers 20 choices"), "\(beyond.stderr)")

        // Plain mode: the title, then the choice page; 15 typed takes the fifteenth.
        let plain = try ChildProcess.run(pajama, ["read", "--no-sound", "--plain", file], environment: environment(home),
                                         input: "\n\n15\n\n")
        #expect(plain.status == 0, "\(plain.stdout)\(plain.stderr)")
        #expect(plain.stdout.contains("  15. Suspect 15\n"), "\(plain.stdout)")
        #expect(plain.stdout.contains("You asked suspect 15."), "\(plain.stdout)")

        let validate = try ChildProcess.run(pajama, ["validate", file], environment: environment(home))
        #expect(validate.status == 0, "\(validate.stdout)")
        #expect(validate.stdout.contains("0 errors"), "\(validate.stdout)")
    }
}
