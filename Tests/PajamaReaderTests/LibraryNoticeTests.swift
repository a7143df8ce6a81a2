import Foundation
import PajamaReader
import PajamaTerminal
import PajamaTestSupport
import Testing

/// The library's notice when a story cannot be opened (issue 27 item 7), in process: the reason said once
/// ("cannot open broken: ..."), not cut but wrapped across the rows of a small terminal.
@MainActor @Suite struct LibraryNoticeTests {
    @Test func theLibrarySaysOnceWhyAStoryCannotBeOpenedAndWrapsIt() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-library-broken")
        defer { home.remove() }
        try home.write("library/broken/story.json", #"{"format":1,"id":"broken","title":"Broken","startBeatId":"not a valid id"}"#)
        let t = HeadlessReading.library(home.url.appendingPathComponent("library").path, home: home, width: 60, height: 16)
        try await t.waitFor("cannot open")
        t.terminal.push(.enter)
        // The whole reason, across rows; the prefix once.
        func flat(_ screen: String) -> String { screen.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ") }
        let screen = try await t.waitUntil("the reason to its end") { flat($0).contains("0-9 _ -)") }
        #expect(!screen.contains("cannot open: cannot open"), "\(screen)")
        #expect(screen.contains("cannot open broken: story.json"), "\(screen)")
        #expect(flat(screen).contains("the beat id \"not a valid id\" is not valid (1 to 128 of A-Z a-z 0-9 _ -)"), "\(screen)")
        #expect(await t.quit() == 0)
    }
}
