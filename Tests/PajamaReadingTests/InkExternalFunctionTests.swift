import Foundation
import PajamaInkBridge
import PajamaModel
import PajamaTestSupport
import Testing

/// External functions in the reader, `play` and `validate` (all through `InkStorySource`): their ink
/// fallbacks run; a story whose external has no fallback opens to a page naming it, and validate warns.
@Suite struct InkExternalFunctionTests {
    @Test func anExternalFunctionRunsItsInkFallback() async throws {
        let dir = try InkReadingTests.folder(InkStoryFixtures.externalWithFallback)
        defer { dir.remove() }
        let start = try await InkReadingTests.beat(InkReadingTests.source(dir), "start")
        #expect(InkReadingTests.lines(start) == ["Hello, traveller!"])
        #expect(start.origin?.stopped == nil)
    }

    @Test func anExternalWithoutAFallbackOpensToAPageNamingIt() async throws {
        let dir = try InkReadingTests.folder(InkStoryFixtures.externalWithoutFallback)
        defer { dir.remove() }
        let start = try await InkReadingTests.beat(InkReadingTests.source(dir), "start")
        #expect(start.pages.map(\.id) == ["title", "external"])
        #expect(start.isEnding)
        let text = try #require(InkReadingTests.lines(start).last)
        #expect(text.contains("written for a game that provides the functions \"ring\", \"score\""), "\(text)")
        #expect(text.contains("story.ink.json"))
        #expect(start.origin?.stopped == text)
    }

    @Test func validateWarnsOfAnExternalWithoutAFallback() async throws {
        let dir = try InkReadingTests.folder(InkStoryFixtures.externalWithoutFallback)
        defer { dir.remove() }
        let report = await StoryValidator.validate(source: InkReadingTests.source(dir), probe: InkReadingTests.Probe())
        #expect(report.exitCode == 0)
        let messages = report.findings.map(\.description)
        #expect(messages.contains { $0.hasPrefix("warning:") && $0.contains("\"ring\", \"score\"") && $0.contains("Readers see a page saying so") }, "\(messages)")
    }

    @Test func validateIsCleanWhenEveryExternalHasAFallback() async throws {
        let dir = try InkReadingTests.folder(InkStoryFixtures.externalWithFallback)
        defer { dir.remove() }
        let report = await StoryValidator.validate(source: InkReadingTests.source(dir), probe: InkReadingTests.Probe())
        #expect(report.findings.isEmpty, "\(report.findings.map(\.description))")
    }

    /// The line the runtime made in the continue that then stopped with an error is read before the error page
    /// (as in ink: fukushima's last line was lost).
    @Test func theLineBeforeARuntimeErrorInTheSameContinueIsRead() async throws {
        let dir = try InkReadingTests.folder(InkStoryFixtures.ranOutOfContent)
        defer { dir.remove() }
        let start = try await InkReadingTests.beat(InkReadingTests.source(dir), "start")
        let lines = InkReadingTests.lines(start)
        #expect(Array(lines.prefix(2)) == ["First words.", "Last words."], "\(lines)")
        #expect(lines.last?.contains("ran out of content") == true, "\(lines)")
        #expect(start.origin?.stopped != nil)
    }
}
