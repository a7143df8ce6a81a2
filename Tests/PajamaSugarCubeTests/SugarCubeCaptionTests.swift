import FoundationEssentials
import PajamaModel
import PajamaStoryFormat
import PajamaSugarCube
import PajamaSugarCubeBridge
import PajamaTestSupport
import Testing

/// StoryBanner and StoryCaption, which SugarCube draws in its UI bar beside every page: the reader's status
/// page (key `i`), as they read where each beat stops.
@Suite struct SugarCubeCaptionTests {
    static let twee = """
    :: StoryData
    {"ifid": "00000000-0000-4000-8000-000000000007", "format": "SugarCube", "start": "Start"}

    :: StoryInit
    <<set $gold to 3>><<set $place to "the shore">>

    :: StoryBanner
    ''The Shore''

    :: StoryCaption
    Gold: $gold
    <<if $gold gt 3>>You are rich.<</if>>
    [[Go home|Home]] <<set $touched to true>>

    :: Start
    You find a coin. [[Take it|Rich][$gold to $gold + 10]]

    :: Rich
    Touched by the caption: <<print $touched is true>>.

    :: Home
    Home.
    """

    @Test func theCaptionIsTheStatusPageAsEachBeatLeavesTheVariables() async throws {
        let folder = try TemporaryDirectory(prefix: "pajama-sugarcube-caption")
        defer { folder.remove() }
        _ = try folder.write("story.twee", Self.twee)
        let source = try #require(SugarCubeStorySource.local(folder.path, seed: 1))
        #expect(await source.statusPageTitle() == "Caption")
        let start = try #require(try await source.madeBeat("start"))
        guard case .choice(_, let choices)? = start.pages.last?.kind else { Issue.record("no choice page"); return }
        let first = try #require(await source.statusPage(at: "start"))
        #expect(first.title == "Caption")
        #expect(first.rows.first == .text("The Shore"), "the banner first, its markup as plain text")
        #expect(first.rows.contains(.text("Gold: 3")))
        #expect(!first.rows.contains { $0 == .text("You are rich.") })
        let rich = try #require(try await source.madeBeat(choices[0].targetBeatId))
        let later = try #require(await source.statusPage(at: choices[0].targetBeatId))
        #expect(later.rows.contains(.text("Gold: 13")))
        #expect(later.rows.contains(.text("You are rich.")))
        // Drawing the caption changes nothing in the reading: its <<set>> is not kept.
        let text = rich.pages.flatMap { page -> [String] in if case .text(let lines) = page.kind { lines } else { [] } }
        #expect(text.contains { $0.contains("Touched by the caption: false.") }, "\(text)")
        // The start again, after the later beat: the caption of that beat, not of the last one made.
        #expect(await source.statusPage(at: "start") == first)
        #expect(await source.statusPage(at: "s-nosuchbeat") == nil)
    }

    @Test func aStoryWithoutCaptionOrBannerOffersNoStatusPage() async throws {
        let folder = try TemporaryDirectory(prefix: "pajama-sugarcube-nocaption")
        defer { folder.remove() }
        _ = try folder.write("story.twee", """
        :: StoryData
        {"ifid": "00000000-0000-4000-8000-000000000008", "format": "SugarCube", "start": "Start"}

        :: Start
        Nothing beside the page.
        """)
        let source = try #require(SugarCubeStorySource.local(folder.path, seed: 1))
        #expect(await source.statusPageTitle() == nil)
        #expect(await source.statusPage(at: "start") == nil)
    }
}
