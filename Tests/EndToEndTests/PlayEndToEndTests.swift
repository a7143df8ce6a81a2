import Foundation
import PajamaStorage
import PajamaTestSupport
import Testing

/// `pajama play` as an author uses it: the real binary, its transcript, messages and exit codes (`pajama read
/// --transcript` runs in process: PajamaReaderTests.TranscriptReadingTests).
@Suite struct PlayEndToEndTests {
    let pajama = PackagePaths.executable("pajama").path
    let atlas = PackagePaths.stories.appendingPathComponent("clockwork-atlas").path
    /// prologue, shop (2: read the label), atlas_speaks (1: the sea), sea_arrival (1: the boat), sea_crossing
    /// (1: the depths), hall_gate (1: the riddle), hall_of_hours (2: chase the crow), crow_chase (2: let go),
    /// the dream ending.
    let toTheDream = "2,1,1,1,1,2,2"

    func play(_ arguments: [String], home: TemporaryDirectory) throws -> ChildProcess.Result {
        var environment = ProcessInfo.processInfo.environment
        for (name, value) in Paths.environment(home: home.path) { environment[name] = value }
        return try ChildProcess.run(pajama, ["play"] + arguments, environment: environment)
    }

    @Test func theGivenChoicesReadToAnEndingAndPrintTheTranscript() throws {
        let home = try TemporaryDirectory(prefix: "pajama-play")
        defer { home.remove() }
        let result = try play([atlas, "--choices", toTheDream], home: home)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "The Clockwork Atlas")
        #expect(lines.filter { $0.hasPrefix("> ") }.count == 7)
        #expect(lines.contains { $0.hasPrefix("> 2. ") })
        #expect(lines.suffix(2) == ["The End", ""])
        // The same reading, again: the same transcript (no saved progress is read or written).
        #expect(try play([atlas, "--choices", toTheDream], home: home).stdout == result.stdout)
        #expect(!FileManager.default.fileExists(atPath: home.path + "/data/pajama/progress/clockwork-atlas.json"))
    }

    @Test func aTranscriptFileIsAppendedTo() throws {
        let home = try TemporaryDirectory(prefix: "pajama-play-file")
        defer { home.remove() }
        let file = home.path + "/reading.txt"
        for _ in 0..<2 {
            let result = try play([atlas, "--choices", toTheDream, "--transcript", file], home: home)
            #expect(result.status == 0 && result.stdout.isEmpty, "\(result.stdout)\(result.stderr)")
        }
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.components(separatedBy: "The End\n").count == 3)
        let folder = try play([atlas, "--choices", toTheDream, "--transcript", home.path], home: home)
        #expect(folder.status == 2)
        #expect(folder.stderr.contains("cannot write the transcript \(home.path): Is a directory"), "\(folder.stderr)")
    }

    @Test func aChoiceOutOfRangeOrRunningOutExitsOneSayingWhere() throws {
        let home = try TemporaryDirectory(prefix: "pajama-play-choices")
        defer { home.remove() }
        let outOfRange = try play([atlas, "--choices", "2,4"], home: home)
        #expect(outOfRange.status == 1)
        #expect(outOfRange.stderr.contains("choice 2 is 4, but beat \"atlas_speaks\", page \"trail\" offers 3 choices"), "\(outOfRange.stderr)")
        let ranOut = try play([atlas, "--choices", "2"], home: home)
        #expect(ranOut.status == 1)
        #expect(ranOut.stderr.contains("the choices ran out after 1: beat \"atlas_speaks\", page \"trail\" offers 3 choices"), "\(ranOut.stderr)")
        // What was read up to there is still printed.
        #expect(ranOut.stdout.contains("> 2. "))
        let notANumber = try play([atlas, "--choices", "2,x"], home: home)
        #expect(notANumber.status == 64)
        #expect(notANumber.stderr.contains("\"x\" (choice 2) is not a choice number"), "\(notANumber.stderr)")
    }

    @Test func aStoryThatCannotBeReadExitsTwoNamingWhatIsMissing() throws {
        let home = try TemporaryDirectory(prefix: "pajama-play-broken")
        defer { home.remove() }
        try FileManager.default.copyItem(atPath: atlas, toPath: home.path + "/story")
        try FileManager.default.removeItem(atPath: home.path + "/story/beats/read_label.json")
        let missingBeat = try play([home.path + "/story", "--choices", toTheDream], home: home)
        #expect(missingBeat.status == 2)
        #expect(missingBeat.stderr.contains("beat \"read_label\""), "\(missingBeat.stderr)")
        #expect(missingBeat.stderr.contains("read_label.json"), "\(missingBeat.stderr)")
        let noStory = try play([home.path + "/nothing", "--choices", "1"], home: home)
        #expect(noStory.status == 2)
        #expect(noStory.stderr.contains("cannot open"), "\(noStory.stderr)")
    }

    @Test func playOverHTTPReadsTheSameStory() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-play-http")
        defer { home.remove() }
        let server = try await TestHTTPServer(root: PackagePaths.stories)
        defer { server.stopSoon() }
        let local = try play([atlas, "--choices", toTheDream], home: home)
        let remote = try play([server.baseURL + "/clockwork-atlas/", "--choices", toTheDream], home: home)
        #expect(remote.status == 0, "\(remote.stderr)")
        #expect(remote.stdout == local.stdout)
    }
}
