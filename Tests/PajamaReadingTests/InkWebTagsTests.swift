import Foundation
import PajamaInkBridge
import PajamaModel
import PajamaTestSupport
import Testing

/// An ink story written for Inky's web player, read through `InkStorySource`: its tags and HTML become
/// pages, pictures, sounds, a background sound carried across beats, styles and an ending that offers the
/// restart (docs/ink.md, "Inky's tags", "Markup").
@Suite struct InkWebTagsTests {
    static let files = ["images/a.png": "x", "images/bg.png": "x", "sounds/bell.wav": "x", "sounds/rain.wav": "x"]

    static func path(_ value: String) -> AssetPath { try! AssetPath(validating: value) }

    @Test func theGlobalTagsGiveTitleAuthorAndTheme() async throws {
        let dir = try InkReadingTests.folder(InkStoryFixtures.web, files: Self.files)
        defer { dir.remove() }
        let manifest = try StoryDecoder.decodeManifest(try await InkReadingTests.source(dir).read("story.json"))
        #expect(manifest.title == "A Web Story")
        #expect(manifest.author == "Someone & Co")
        #expect(manifest.theme == .dark)
        let start = try await InkReadingTests.beat(InkReadingTests.source(dir), "start")
        #expect(start.pages[0].kind == .title(title: "A Web Story", subtitle: "Someone & Co"))
    }

    @Test func theTitleAndTheChoicesKeepTheirStyles() async throws {
        let dir = try InkReadingTests.folder(InkStoryFixtures.web, files: Self.files)
        defer { dir.remove() }
        // Read as the storage tier reads a file (encoded and decoded): marks on a title and a choice page pass.
        let start = try await InkReadingTests.beat(InkReadingTests.source(dir), "start")
        // `# title: A <b>Web</b> Story`: the title page's line 0 is bold at "Web"; the author has no markup.
        #expect(start.pages[0].marks == [LineMarks(line: 0, spans: [TextSpan(from: 2, to: 5, attributes: .bold)])])
        // `Go <b>on</b>`: the plain text for transcripts and the voice, the style for the page.
        let choices = try #require(start.pages.last)
        #expect(choices.choices.map(\.text) == ["Go on"])
        #expect(choices.marks == [LineMarks(line: 0, spans: [TextSpan(from: 3, to: 5, attributes: .bold)])])
    }

    @Test func tagsBecomePicturesSoundsPagesAndTheLoop() async throws {
        let dir = try InkReadingTests.folder(InkStoryFixtures.web, files: Self.files)
        defer { dir.remove() }
        let source = InkReadingTests.source(dir)
        let start = try await InkReadingTests.beat(source, "start")
        #expect(start.pages.map(\.id) == ["title", "p1", "p2", "choices"])
        // IMAGE: the page's picture; AUDIO: its page-enter sound; AUDIOLOOP: its background sound.
        let first = start.pages[1]
        #expect(first.kind == .text(lines: ["The storm came & went. Second row.", "Plain line with junk."]))
        #expect(first.imageUrl == Self.path("images/a.png"))
        #expect(first.pageEnterSounds == [Self.path("sounds/bell.wav")])
        #expect(first.backgroundSound == .play(Self.path("sounds/rain.wav")))
        // HTML: bold and italic spans, the break, no tag left in the text.
        #expect(first.marks == [LineMarks(line: 0, spans: [TextSpan(from: 4, to: 9, attributes: .bold)], breaks: [22]),
                                LineMarks(line: 1, spans: [TextSpan(from: 6, to: 10, attributes: .italic)])])
        // CLEAR: a new page; CLASS: dim: the whole line; the loop goes on.
        #expect(start.pages[2].kind == .text(lines: ["After the clear."]))
        #expect(start.pages[2].marks == [LineMarks(line: 0, spans: [TextSpan(from: 0, to: 16, attributes: .dim)])])
        #expect(start.pages[2].backgroundSound == .play(Self.path("sounds/rain.wav")))
        #expect(start.pages[2].imageUrl == nil)
        // BACKGROUND: the picture of the pages without one, from here on: the choice page's, whose prompt is the
        // line before the choices ("Background page.", a page of its own before issue 35 item 5).
        #expect(start.pages[3].kind == .choice(prompt: "Background page.", choices: start.pages[3].choices))
        #expect(start.pages[3].imageUrl == Self.path("images/bg.png"))
        #expect(start.pages[3].backgroundSound == .play(Self.path("sounds/rain.wav")))
        // A choice's markup is taken off its text.
        #expect(start.pages[3].choices.map(\.text) == ["Go on"])
        // The loop is a sound of the beat (preloaded like the others, never waited for).
        #expect(start.assetReferences.contains { $0.path == Self.path("sounds/rain.wav") && $0.role == .backgroundSound })
        #expect(AssetRole.backgroundSound.defaultCriticality == .important)
    }

    @Test func theLoopAndBackgroundCarryIntoTheNextBeatUntilStopped() async throws {
        let dir = try InkReadingTests.folder(InkStoryFixtures.web, files: Self.files)
        defer { dir.remove() }
        let source = InkReadingTests.source(dir)
        let start = try await InkReadingTests.beat(source, "start")
        let next = try await InkReadingTests.beat(source, start.pages[3].choices[0].targetBeatId)
        #expect(next.pages.map(\.id) == ["p1", "p2"])
        #expect(next.pages[0].kind == .text(lines: ["Still raining."]))
        #expect(next.pages[0].backgroundSound == .play(Self.path("sounds/rain.wav")))
        #expect(next.pages[0].imageUrl == Self.path("images/bg.png"))
        // AUDIOLOOP: none stops it on the page of its line.
        #expect(next.pages[1].kind == .text(lines: ["Quiet now."]))
        #expect(next.pages[1].backgroundSound == .stop)
        // RESTART: the story stops before its line; the beat is an ending (the end screen offers the restart).
        #expect(!InkReadingTests.lines(next).contains("Never shown."))
        #expect(next.isEnding)
        // The beat's origin carries the scene it started in, so resuming it from its saved state keeps both.
        #expect(next.origin?.loop == "sounds/rain.wav")
        #expect(next.origin?.background == "images/bg.png")
        let resumed = InkReadingTests.source(dir)
        #expect(await resumed.restore(next.origin!) == .restoredAnew)
        let again = try await InkReadingTests.beat(resumed, next.id)
        #expect(again.pages[0].backgroundSound == .play(Self.path("sounds/rain.wav")))
        #expect(again.pages[0].imageUrl == Self.path("images/bg.png"))
    }

    /// A `# alt:` on the line of a `# BACKGROUND:` is the background's alt text: on every page it is drawn on,
    /// in the next beat, and after a resume; validate warns of a background without one.
    @Test func aBackgroundCarriesItsAltTextAndValidateAsksForIt() async throws {
        let withAlt = InkStoryFixtures.web.replacingOccurrences(
            of: ##""#","^BACKGROUND: images/bg.png","/#","##, with: ##""#","^BACKGROUND: images/bg.png","/#","#","^alt: rain on the harbour","/#","##)
        let dir = try InkReadingTests.folder(withAlt, files: Self.files)
        defer { dir.remove() }
        let source = InkReadingTests.source(dir)
        let start = try await InkReadingTests.beat(source, "start")
        let drawn = start.pages.filter { $0.imageUrl == Self.path("images/bg.png") }
        #expect(!drawn.isEmpty && drawn.allSatisfy { $0.imageAlt == "rain on the harbour" }, "\(start.pages)")
        #expect(start.pages.first { $0.imageUrl == Self.path("images/a.png") }?.imageAlt == nil)  // not the IMAGE's
        let next = try await InkReadingTests.beat(source, start.pages[3].choices[0].targetBeatId)
        #expect(next.pages[0].imageAlt == "rain on the harbour")
        #expect(next.origin?.backgroundAlt == "rain on the harbour")
        let resumed = InkReadingTests.source(dir)
        #expect(await resumed.restore(next.origin!) == .restoredAnew)
        #expect(try await InkReadingTests.beat(resumed, next.id).pages[0].imageAlt == "rain on the harbour")
        let quiet = await StoryValidator.validate(source: source, probe: AcceptingProbe()).findings.map { "\($0)" }
        #expect(!quiet.contains { $0.contains("images/bg.png") && $0.contains("no alt text") }, "\(quiet)")

        let bare = try InkReadingTests.folder(InkStoryFixtures.web, files: Self.files)
        defer { bare.remove() }
        let asked = await StoryValidator.validate(source: InkReadingTests.source(bare), probe: AcceptingProbe()).findings.map { "\($0)" }
        #expect(asked.contains { $0.contains("the picture images/bg.png has no alt text") && $0.contains("# BACKGROUND: images/bg.png") }, "\(asked)")
    }

    @Test func aStoryWithoutLoopsSaysNothingAboutThem() async throws {
        let dir = try InkReadingTests.folder(InkStoryFixtures.paging())
        defer { dir.remove() }
        let start = try await InkReadingTests.beat(InkReadingTests.source(dir), "start")
        #expect(start.pages.allSatisfy { $0.backgroundSound == nil && $0.marks.isEmpty })
    }

    @Test func aBadPathInAnInkyTagNamesTheTag() async throws {
        let json = ##"{"inkVersion":21,"root":[["^Look.","#","^AUDIOLOOP: ../../etc/passwd","/#","\n","end",null],"done",null],"listDefs":{}}"##
        let dir = try InkReadingTests.folder(json)
        defer { dir.remove() }
        await #expect {
            _ = try await InkReadingTests.beat(InkReadingTests.source(dir), "start")
        } throws: { error in
            "\(error)".contains("AUDIOLOOP: ../../etc/passwd") && "\(error)".contains("audioloop: a '..'")
        }
    }

    @Test func validateListsUnknownMarkupAndChecksLoopsAndBackgrounds() async throws {
        let dir = try InkReadingTests.folder(InkStoryFixtures.web, files: ["images/a.png": "x", "sounds/bell.wav": "x"])
        defer { dir.remove() }
        let report = await StoryValidator.validate(source: InkReadingTests.source(dir), probe: AcceptingProbe())
        let messages = report.findings.map { "\($0)" }
        #expect(messages.contains { $0.contains("markup the reader does not know: <blink>") }, "\(messages)")
        #expect(messages.contains { $0.contains("images/bg.png: the file does not exist") }, "\(messages)")
        #expect(messages.contains { $0.contains("sounds/rain.wav: the file does not exist") }, "\(messages)")
        // Inky's tags are the reader's: none is listed as ignored.
        #expect(!messages.contains { $0.contains("tags the reader does not use") }, "\(messages)")
    }
}

/// Every picture and sound decodes (the validator's asset checks without decoders).
struct AcceptingProbe: AssetProbe {
    func problemWithImage(_ path: AssetPath, _ data: [UInt8]) -> String? { nil }
    func problemWithSound(_ path: AssetPath, _ data: [UInt8]) -> String? { nil }
}
