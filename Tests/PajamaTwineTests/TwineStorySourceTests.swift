import Foundation
import PajamaModel
import PajamaTestSupport
import PajamaTwine
import Testing
@testable import PajamaTwineBridge

/// The Twine bridge: a Twine story read as a story source (passages as beats), its detection, resuming and
/// validation.
@Suite struct TwineStorySourceTests {
    static let twee = """
        :: StoryTitle
        The Lighthouse

        :: StoryData
        {"ifid": "D674C58C-DEFA-4F70-B7A2-27742230C0FC", "format": "Harlowe", "format-version": "3.3.8", "start": "Shore"}

        :: Shore [critical]
        <img src="pictures/sea.png">The sea is loud. (set: $coins to (either: 1, 2, 3))
        [[Climb->Top]]
        [[Swim->Sea]]

        :: Top
        You have $coins coins. (live: 2s)[Tick.]
        <!-- page -->
        The lamp is lit.
        [[Down->Shore]]

        :: Sea
        The water closes over you.
        """

    private func folder(_ files: [String: String]) throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory(prefix: "pajama-twine")
        for (name, text) in files { _ = try directory.write(name, text) }
        return directory
    }

    @Test func aFolderWithTweeIsAStoryAndPassagesAreBeats() async throws {
        let directory = try folder(["lighthouse.twee": Self.twee])
        defer { directory.remove() }
        let source = try #require(TwineStorySource.local(directory.path, seed: 3))
        #expect(source.files == ["lighthouse.twee"])
        let package = try folder(["story.json": "{}", "notes.twee": Self.twee])
        defer { package.remove() }
        #expect(TwineFiles.files(at: package.path) == nil)  // a package, whatever else it holds
        let manifest = try StoryDecoder.decodeManifest(try await source.read("story.json"))
        #expect(manifest.title == "The Lighthouse")
        #expect(manifest.id == "lighthouse")
        #expect(manifest.criticality == [try AssetPath(validating: "pictures/sea.png"): .critical])
        let start = try #require(try await source.madeBeat("start"))
        // The passage's last paragraph is shown with its links (the choice page's prompt); its page, with a
        // picture of its own, keeps it too.
        #expect(start.pages.map(\.id) == ["title", "p1", "choices"])
        #expect(start.pages[1].imageUrl?.value == "pictures/sea.png")
        #expect(start.pages[1].kind == .text(lines: ["The sea is loud."]))
        guard case .choice(let prompt, let choices) = start.pages[2].kind else {
            Issue.record("pages \(start.pages)")
            return
        }
        #expect(prompt == "The sea is loud.")
        #expect(choices.map(\.text) == ["Climb", "Swim"])
        let top = try #require(try await source.madeBeat(choices[0].targetBeatId))
        let texts = top.pages.compactMap { page -> [String]? in if case .text(let lines) = page.kind { lines } else { nil } }
        #expect(texts.count == 1)  // the page marker starts a page: the choices' with the paragraph after it
        #expect(texts[0][0].hasPrefix("You have ") && texts[0][0].hasSuffix(" coins. Tick."))
        guard case .choice(let topPrompt, _) = top.pages.last?.kind else {
            Issue.record("pages \(top.pages)")
            return
        }
        #expect(topPrompt == "The lamp is lit.")
        let sea = try #require(try await source.madeBeat(choices[1].targetBeatId))
        #expect(sea.isEnding)
    }

    @Test func aPassageOfTwelveLinksOffersEveryOne() async throws {
        let links = (1...12).map { "[[Door \($0)->Room\($0)]]" }.joined(separator: "\n")
        let rooms = (1...12).map { ":: Room\($0)\nBehind door \($0)." }.joined(separator: "\n\n")
        let twee = """
            :: StoryData
            {"ifid": "D674C58C-DEFA-4F70-B7A2-27742230C0FE", "format": "Harlowe", "format-version": "3.3.8", "start": "Hall"}

            :: Hall
            Twelve doors.
            \(links)

            \(rooms)
            """
        let directory = try folder(["doors.twee": twee])
        defer { directory.remove() }
        let source = try #require(TwineStorySource.local(directory.path, seed: 3))
        let start = try #require(try await source.madeBeat("start"))
        let choices = start.pages.last?.choices ?? []
        #expect(choices.map(\.text) == (1...12).map { "Door \($0)" })
        try #require(choices.count == 12)
        try StoryDecoder.check(start, file: "beats/start.json", expectedId: "start")
        let last = try #require(try await source.madeBeat(choices[11].targetBeatId))
        #expect(last.pages.first?.kind == .text(lines: ["Behind door 12."]))
        // Resumed by replaying the way there: link 12 is offered again.
        var way = try #require(last.origin)
        (way.state, way.version) = (nil, "an older version")
        let again = try #require(TwineStorySource.local(directory.path, seed: 3))
        #expect(await again.restore(way) == .restored)
    }

    @Test func coloursAndAlignmentBecomeThePagesMarks() async throws {
        let twee = """
            :: StoryData
            {"ifid": "D674C58C-DEFA-4F70-B7A2-27742230C0FD", "format": "Harlowe", "format-version": "3.3.8", "start": "Start"}

            :: Start
            The (text-colour: red)[red] sea.
            =><=
            A ''centred'' line.
            ==>
            Signed.
            """
        let directory = try folder(["colours.twee": twee])
        defer { directory.remove() }
        let source = try #require(TwineStorySource.local(directory.path, seed: 1))
        let start = try #require(try await source.madeBeat("start"))
        let page = try #require(start.pages.first { $0.id == "p1" })
        guard case .text(let lines) = page.kind else {
            Issue.record("page \(page)")
            return
        }
        #expect(lines == ["The red sea.", "A centred line.", "Signed."])
        #expect(page.marks == [LineMarks(line: 0, spans: [TextSpan(from: 4, to: 7, attributes: [], color: 0xE61919)]),
                               LineMarks(line: 1, spans: [TextSpan(from: 2, to: 9, attributes: .bold)], alignment: .center),
                               LineMarks(line: 2, alignment: .right)])
    }

    /// A link's label keeps its markup's look on the choice page (as an ink choice's does): `[[*Blushes* and
    /// giggles->Ram]]` is an italic word, not asterisks and not plain.
    @Test func aLinksMarkupStylesItsChoice() async throws {
        let twee = """
            :: StoryData
            {"ifid": "D674C58C-DEFA-4F70-B7A2-27742230C0FE", "format": "Harlowe", "format-version": "3.3.8", "start": "Start"}

            :: Start
            Ram smiles.
            [[*Blushes* and giggles->Ram]]
            [[''Run''->Ram]]
            [[Wave->Ram]]

            :: Ram
            The end.
            """
        let directory = try folder(["links.twee": twee])
        defer { directory.remove() }
        let source = try #require(TwineStorySource.local(directory.path, seed: 1))
        let start = try #require(try await source.madeBeat("start"))
        let page = try #require(start.pages.first { if case .choice = $0.kind { true } else { false } })
        guard case .choice(_, let choices) = page.kind else { return }
        #expect(choices.map(\.text) == ["Blushes and giggles", "Run", "Wave"])
        #expect(page.marks == [LineMarks(line: 0, spans: [TextSpan(from: 0, to: 7, attributes: .italic)]),
                               LineMarks(line: 1, spans: [TextSpan(from: 0, to: 3, attributes: .bold)])])
    }

    /// A passage without links that writes no words (empty, or a picture alone) is an ending whose page shows
    /// what Harlowe shows, its picture or nothing: no "The end." Harlowe never writes (the reader's end screen
    /// says "The End"). The beat is a story's beat like any (it encodes and decodes).
    @Test func anEndingWithoutWordsWritesNone() async throws {
        let twee = """
            :: Start
            [[Empty]]
            [[Picture]]

            :: Empty

            :: Picture
            <img src="pictures/sea.png" alt="the sea">
            """
        let directory = try folder(["endings.twee": twee])
        defer { directory.remove() }
        let source = try #require(TwineStorySource.local(directory.path, seed: 1))
        let start = try #require(try await source.madeBeat("start"))
        guard case .choice(_, let choices) = start.pages.last?.kind else {
            Issue.record("pages \(start.pages)")
            return
        }
        let empty = try #require(try await source.madeBeat(choices[0].targetBeatId))
        #expect(empty.isEnding)
        #expect(empty.pages.map(\.kind) == [.title(title: "", subtitle: nil)])
        let picture = try #require(try await source.madeBeat(choices[1].targetBeatId))
        #expect(picture.isEnding)
        #expect(picture.pages.map(\.kind) == [.title(title: "", subtitle: nil)])
        #expect(picture.pages.first?.imageUrl?.value == "pictures/sea.png")
        #expect(picture.pages.first?.imageAlt == "the sea")
        for beat in [empty, picture] {
            let read = try await source.read("beats/\(beat.id).json")
            #expect(try StoryDecoder.decodeBeat(read, file: "beats/\(beat.id).json", expectedId: beat.id).pages == beat.pages)
        }
    }

    @Test func theSameSeedAndLinksGiveTheSameBeats() async throws {
        let directory = try folder(["lighthouse.twee": Self.twee])
        defer { directory.remove() }
        let first = try #require(TwineStorySource.local(directory.path, seed: 5))
        let second = try #require(TwineStorySource.local(directory.path, seed: 5))
        let start = try #require(try await first.madeBeat("start"))
        guard case .choice(_, let choices) = start.pages.last?.kind else { return }
        _ = try await second.madeBeat("start")
        #expect(try await first.madeBeat(choices[0].targetBeatId) == second.madeBeat(choices[0].targetBeatId))
    }

    @Test func resumingFromASavedStateAndByReplaying() async throws {
        let directory = try folder(["lighthouse.twee": Self.twee])
        defer { directory.remove() }
        let source = try #require(TwineStorySource.local(directory.path, seed: 9))
        let start = try #require(try await source.madeBeat("start"))
        guard case .choice(_, let choices) = start.pages.last?.kind else { return }
        let top = try #require(try await source.madeBeat(choices[0].targetBeatId))
        let origin = try #require(top.origin)
        #expect(origin.steps == [0])
        #expect(origin.state != nil)
        // A new reader of the same file: the saved state is used.
        let again = try #require(TwineStorySource.local(directory.path, seed: 1))
        #expect(await again.restore(origin) == .restoredAnew)
        #expect(try await again.madeBeat(top.id) == top)
        // A changed file: the links are replayed.
        _ = try directory.write("lighthouse.twee", Self.twee + "\n\n:: Extra\nMore.")
        let changed = try #require(TwineStorySource.local(directory.path, seed: 9))
        #expect(await changed.restore(origin) == .restored)
        #expect(try await changed.madeBeat(top.id)?.pages.count == top.pages.count)
        var gone = origin
        gone.steps = [5]
        gone.state = nil
        gone.version = "other"
        guard case .failed(let reason) = await changed.restore(gone) else {
            Issue.record("a missing link was restored")
            return
        }
        #expect(reason.contains("link 6 is no longer offered"))
    }

    @Test func publishedHTMLAndRefusedFormats() async throws {
        let html = """
            <tw-storydata name="Small" startnode="1" format="Harlowe" format-version="3.3.8">
            <tw-passagedata pid="1" name="A">Hello &amp; welcome. [[On-&gt;B]]</tw-passagedata>
            <tw-passagedata pid="2" name="B">Bye.</tw-passagedata></tw-storydata>
            """
        let directory = try folder(["index.html": "<html><body>\(html)</body></html>", "other.html": "<p>not a story</p>"])
        defer { directory.remove() }
        let source = try #require(TwineStorySource.local(directory.path, seed: 0))
        #expect(source.files == ["index.html"])
        let start = try #require(try await source.madeBeat("start"))
        guard case .text(let lines) = start.pages[1].kind else { return }
        #expect(lines == ["Hello & welcome. On"])

        let sugar = try folder(["story.twee": ":: StoryData\n{\"format\": \"SugarCube\", \"format-version\": \"2.36.1\", \"start\": \"A\"}\n\n:: A\n<<set $x to 1>>Hi"])
        defer { sugar.remove() }
        let refused = try #require(TwineStorySource.local(sugar.path, seed: 0))
        await #expect(throws: StorySourceError.notAStory(path: "story.twee", reason: "story.twee is a SugarCube 2.36.1 story: its macros and expressions are JavaScript, which Pajama does not run (passage \"A\" uses \"<<set $x to 1>>Hi\"). Pajama plays Harlowe 3 stories, and stories of other formats that hold only links and plain text.")) {
            _ = try await refused.read("story.json")
        }
        let plain = try folder(["story.twee": ":: StoryData\n{\"format\": \"SugarCube\", \"start\": \"A\"}\n\n:: A\nJust text. [[Go->B]]\n\n:: B\nEnd."])
        defer { plain.remove() }
        let read = try #require(TwineStorySource.local(plain.path, seed: 0))
        #expect(try await read.madeBeat("start")?.pages.count == 3)
    }

    @Test func validateNamesUnsupportedMacrosBrokenLinksAndMissingPictures() async throws {
        let directory = try folder(["lighthouse.twee": Self.twee + "\n\n:: Broken\n(input-box: 'x')[[Nowhere]]<img src=\"http://example.com/a.png\">[[Back->$lastPage]]"])
        defer { directory.remove() }
        let source = try #require(TwineStorySource.local(directory.path, seed: 0))
        let report = try #require(await source.validateItself(probe: NoProbe()))
        let messages = report.findings.map(\.message)
        #expect(messages.contains("passage \"Broken\" uses (input-box:), which Pajama does not play (a short notice is shown in its place)"))
        #expect(messages.contains("passage \"Broken\" leads to \"Nowhere\", which is no passage"))
        #expect(!messages.contains { $0.contains("$lastPage") })  // a variable's passage is known when the story runs
        #expect(messages.contains { $0.hasPrefix("passage \"Shore\": pictures/sea.png: the file does not exist") })
        #expect(messages.contains { $0.hasPrefix("passage \"Broken\": the picture \"http://example.com/a.png\" is not read") })
        #expect(!messages.contains { $0.contains("(live:)") })
    }

    /// HAL's tracks on the pages: a play is the page's sound, a looping track the background sound of every
    /// page from its line on (across beats) until stopped; validate checks the tracks' files and names the
    /// commands Pajama does not play.
    @Test func halTracksBecomePageSoundsAndTheBackgroundLoop() async throws {
        let twee = """
            :: StoryData
            {"ifid": "D674C58C-DEFA-4F70-B7A2-27742230C0FE", "format": "Harlowe", "format-version": "3.3.8", "start": "Start"}

            :: hal.tracks
            door: sounds/door.ogg
            sea: ./sounds/sea.mp3, ./sounds/sea.ogg

            :: Start
            (track: 'door', 'play')The door opens.
            (track: 'sea', 'loop', true)(track: 'sea', 'play')The sea begins.
            [[Walk on->Beach]]

            :: Beach
            Sand.
            [[Inside->Room]]

            :: Room
            (track: 'sea', 'stop')Quiet. (track: 'sea', 'fadeup')
            """
        let directory = try folder(["sea.twee": twee, "sounds/door.ogg": "x", "sounds/sea.mp3": "x"])
        defer { directory.remove() }
        let source = try #require(TwineStorySource.local(directory.path, seed: 1))
        let start = try #require(try await source.madeBeat("start"))
        let text = start.pages.filter { if case .text = $0.kind { true } else { false } }
        // The loop starts a page: the links', its line their prompt (the line before the links).
        try #require(text.count == 1)
        #expect(text[0].soundEffects.map(\.soundURL.value) == ["sounds/door.ogg"])
        #expect(text[0].backgroundSound == .stop)
        let choices = try #require(start.pages.last)
        #expect(choices.kind == .choice(prompt: "The sea begins.", choices: choices.choices))
        #expect(choices.backgroundSound == .play(try AssetPath(validating: "sounds/sea.mp3")))
        guard case .choice(_, let links) = choices.kind else { return }
        let beach = try #require(try await source.madeBeat(links[0].targetBeatId))
        #expect(beach.pages.allSatisfy { $0.backgroundSound == .play(try! AssetPath(validating: "sounds/sea.mp3")) })
        guard case .choice(_, let next)? = beach.pages.last?.kind else { return }
        let room = try #require(try await source.madeBeat(next[0].targetBeatId))
        #expect(room.pages.last?.backgroundSound == .stop)

        let report = try #require(await source.validateItself(probe: NoProbe()))
        let messages = report.findings.map(\.message)
        #expect(messages.contains("passage \"Room\" uses (track: 'fadeup'), which Pajama does not play (a short notice is shown in its place)"))
        #expect(!messages.contains { $0.contains("sounds/") }, "\(messages)")
        try FileManager.default.removeItem(atPath: directory.path + "/sounds/sea.mp3")
        let missing = try #require(await TwineStorySource.local(directory.path, seed: 1)?.validateItself(probe: NoProbe()))
        #expect(missing.findings.map(\.message).contains("passage \"hal.tracks\", track \"sea\": none of its sources is there (sounds/sea.mp3, sounds/sea.ogg)"))
    }

    /// A sound with several sources (a HAL track, `(newtrack:)`, an `<audio>`'s `<source>`s) plays the first the
    /// package holds, as a browser does: the page names the first, and reading it gives the next that is
    /// there; validate is quiet while one is there and names the file, passage and track when none is.
    @Test func aSoundPlaysTheFirstOfItsSourcesThePackageHolds() async throws {
        let twee = """
            :: StoryData
            {"ifid": "D674C58C-DEFA-4F70-B7A2-27742230C0FF", "format": "Harlowe", "format-version": "3.3.8", "start": "Start"}

            :: hal.tracks
            sea: ./sounds/sea.mp3, ./sounds/sea.ogg

            :: Start
            (newtrack: 'gull', 'sounds/gull.mp3', 'sounds/gull.wav')(track: 'sea', 'play')(track: 'gull', 'play')The shore.
            <audio><source src="sounds/bell.mp3"><source src="sounds/bell.flac"></audio>A bell.
            """
        let directory = try folder(["sea.twee": twee, "sounds/sea.ogg": "sea-ogg", "sounds/gull.wav": "gull-wav", "sounds/bell.mp3": "bell-mp3",
                                    "sounds/bell.flac": "bell-flac"])
        defer { directory.remove() }
        let source = try #require(TwineStorySource.local(directory.path, seed: 1))
        let start = try #require(try await source.madeBeat("start"))
        let sounds = start.pages.flatMap { $0.soundEffects.map(\.soundURL.value) }
        #expect(sounds == ["sounds/sea.mp3", "sounds/gull.mp3", "sounds/bell.mp3"])
        #expect(try await source.read("sounds/sea.mp3") == Array("sea-ogg".utf8))
        #expect(try await source.read("sounds/gull.mp3") == Array("gull-wav".utf8))
        #expect(try await source.read("sounds/bell.mp3") == Array("bell-mp3".utf8))  // the first, when it is there
        await #expect(throws: StorySourceError.notFound(path: "sounds/none.ogg")) { try await source.read("sounds/none.ogg") }
        let report = try #require(await source.validateItself(probe: NoProbe()))
        #expect(!report.findings.contains { $0.message.contains("sounds/") }, "\(report.findings.map(\.message))")

        for name in ["sea.ogg", "gull.wav"] { try FileManager.default.removeItem(atPath: directory.path + "/sounds/" + name) }
        let fresh = try #require(TwineStorySource.local(directory.path, seed: 1))
        await #expect(throws: StorySourceError.notFound(path: "sounds/sea.mp3")) { try await fresh.read("sounds/sea.mp3") }
        let missing = try #require(await fresh.validateItself(probe: NoProbe())).findings.filter { $0.severity == .error }
        #expect(Set(missing.map(\.message)) == [
            "passage \"Start\", track \"gull\": none of its sources is there (sounds/gull.mp3, sounds/gull.wav)",
            "passage \"hal.tracks\", track \"sea\": none of its sources is there (sounds/sea.mp3, sounds/sea.ogg)",
        ])
        #expect(missing.allSatisfy { $0.file == "sea.twee" })
    }

    private struct NoProbe: AssetProbe {
        func problemWithSound(_ path: AssetPath, _ bytes: [UInt8]) -> String? { nil }
        func problemWithImage(_ path: AssetPath, _ bytes: [UInt8]) -> String? { nil }
    }
}
