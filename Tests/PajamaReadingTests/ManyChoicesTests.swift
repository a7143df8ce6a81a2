import Foundation
import PajamaInkBridge
import PajamaModel
import PajamaReading
import PajamaTestSupport
import Testing

/// A story offering more than 9 choices at once (issue 35, item 3): an ink story's investigation menu of 20.
/// Every choice is carried, made, encoded, decoded and taken; Pajama's own beat files keep 1 to 9.
@MainActor @Suite struct ManyChoicesTests {
    /// "Who did it?", then `count` choices ("Suspect 1" ...); choice `i` says "You asked suspect i." and ends.
    static func menu(_ count: Int) -> String {
        let choices = (0..<count).map { ##""ev","str","^Suspect \##($0 + 1)","/str","/ev",{"*":"0.c-\##($0)","flg":20}"## }
        let targets = (0..<count).map { ##""c-\##($0)":["^You asked suspect \##($0 + 1).","\n","end",{"#f":5}]"## }
        return ##"""
            {"inkVersion":21,"root":[["^The rain had not stopped.","\n","^Who did it?","\n",\##(choices.joined(separator: ",")),{\##(targets.joined(separator: ","))}],"done",null],"listDefs":{}}
            """##
    }

    @Test func anInkChoicePointOfTwentyIsMadeWholeAndEveryChoiceLeadsOn() async throws {
        let dir = try InkReadingTests.folder(Self.menu(20))
        defer { dir.remove() }
        let source = InkReadingTests.source(dir)
        // Through the beat's JSON (as a disk cache and a co-reading follower get it) and as the value made.
        let start = try await InkReadingTests.beat(source, "start")
        let made = try #require(try await source.madeBeat("start"))
        try StoryDecoder.check(made, file: "beats/start.json", expectedId: "start")
        #expect(made.pages == start.pages)
        let choices = start.pages.last?.choices ?? []
        #expect(choices.map(\.text) == (1...20).map { "Suspect \($0)" })
        try #require(choices.count == 20)
        // The last one leads to its own beat, made from choice 20.
        let last = try await InkReadingTests.beat(source, choices[19].targetBeatId)
        #expect(InkReadingTests.lines(last) == ["You asked suspect 20."])
    }

    @Test func aReadingTakesTheTwentiethChoice() async throws {
        let dir = try InkReadingTests.folder(Self.menu(20))
        defer { dir.remove() }
        let content = try await InkResumeTests.open(dir, seed: 1)
        let reader = ReaderViewModel(content: content, sound: nil, progress: nil)
        await reader.start()
        while case .page(let page) = reader.state, page.page.choices.isEmpty { await reader.changePage(.advance) }
        guard case .page(let menu) = reader.state else {
            Issue.record("no choice page: \(reader.state)")
            return
        }
        #expect(menu.page.choices.count == 20)
        await reader.changePage(.choose(19))
        guard case .page(let end) = reader.state else {
            Issue.record("not on the page of choice 20: \(reader.state)")
            return
        }
        #expect(end.page.kind == .text(lines: ["You asked suspect 20."]))
        await reader.close()
    }

    @Test func aMadeBeatMayHaveAnyNumberOfChoicesAPajamaBeatFileOneToNine() throws {
        let page = MadeBeatTests.choices(12)
        let origin = BeatOrigin(seed: 1, steps: [], version: "ink-1")
        try StoryDecoder.check(Beat(id: "a", pages: [page], origin: origin), file: "beats/a.json")
        let made = StoryEncoder.encode(Beat(id: "a", pages: [page], origin: origin))
        #expect(try StoryDecoder.decodeBeat(made, file: "beats/a.json").pages.last?.choices.count == 12)
        // Pajama's own story package: the contract of story.json's format (shared/STORY_FORMAT.md).
        let own = StoryEncoder.encode(Beat(id: "a", pages: [page]))
        #expect(throws: StoryFormatError.self) { try StoryDecoder.decodeBeat(own, file: "beats/a.json") }
        #expect(StoryDecoder.beatProblems(own, file: "beats/a.json").first?.message == "a choice page needs 1 to 9 choices (found 12)")
        #expect(throws: StoryFormatError.self) { try StoryDecoder.check(Beat(id: "a", pages: [page]), file: "beats/a.json") }
    }
}
