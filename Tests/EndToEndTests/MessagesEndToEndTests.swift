import Foundation
import PajamaStorage
import PajamaTestSupport
import Testing

/// Messages a new reader meets (issue 27 item 7): a port in use said in words with the option that changes
/// it; `validate` naming every problem of a file. (The library's reason a story cannot be opened, said once
/// and wrapped: PajamaReaderTests.LibraryNoticeTests.)
@Suite(.serialized) struct MessagesEndToEndTests {
    let pajama = PackagePaths.executable("pajama").path
    let story = PackagePaths.stories.appendingPathComponent("lantern-keeper").path

    @Test func aPortInUseIsSaidWithTheOptionThatChangesIt() throws {
        let busy = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(busy) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Int32 in
                guard bind(busy, pointer, length) == 0, listen(busy, 1) == 0 else { return -1 }
                return getsockname(busy, pointer, &length)
            }
        }
        try #require(bound == 0)
        let port = Int(UInt16(bigEndian: address.sin_port))
        let home = try TemporaryDirectory(prefix: "pajama-port")
        defer { home.remove() }
        var env = Paths.environment(home: home.path)
        env["PULSE_SERVER"] = "unix:/nonexistent"
        let run = try ChildProcess.run(pajama, ["host", "--no-sound", "--port", String(port), "--token", "e2e-token-0123456789", story],
                                       environment: env, timeout: 60)
        #expect(run.status == 2, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr == "pajama: port \(port) is in use; choose another with --port\n", "\(run.stderr)")
    }

    @Test func validateNamesEveryProblemOfAFile() throws {
        let dir = try TemporaryDirectory(prefix: "pajama-validate-all")
        defer { dir.remove() }
        try dir.write("story.json", #"{"format":1,"id":"all","title":"All","startBeatId":"a"}"#)
        try dir.write("beats/a.json", #"""
        {"id":"a","nextBeatId":"bad id","pages":[
          {"id":"p1","type":"text","lines":[]},
          {"id":"p2","type":"bogus"},
          {"id":"p3","type":"choice","choices":[]}]}
        """#)
        let run = try ChildProcess.run(pajama, ["validate", dir.path], timeout: 60)
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        let out = run.stdout + run.stderr
        #expect(out.contains("at nextBeatId: the beat id \"bad id\" is not valid"), "\(out)")
        #expect(out.contains("page \"p1\": at pages[0].lines: a text page needs at least one line"), "\(out)")
        #expect(out.contains("page \"p2\": at pages[1].type: unknown page type \"bogus\""), "\(out)")
        #expect(out.contains("page \"p3\": at pages[2].choices: a choice page needs 1 to 9 choices (found 0)"), "\(out)")
        // story.json too.
        try dir.write("story.json", #"{"format":1,"id":"all ids","title":"All","startBeatId":"a b"}"#)
        let manifest = try ChildProcess.run(pajama, ["validate", dir.path], timeout: 60)
        #expect(manifest.status == 1, "\(manifest.stdout)\(manifest.stderr)")
        #expect((manifest.stdout + manifest.stderr).contains("at id: the story id \"all ids\""), "\(manifest.stdout)\(manifest.stderr)")
        #expect((manifest.stdout + manifest.stderr).contains("at startBeatId: the beat id \"a b\""), "\(manifest.stdout)\(manifest.stderr)")
    }
}
