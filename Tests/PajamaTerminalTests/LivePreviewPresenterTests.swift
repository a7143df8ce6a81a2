import Testing

@testable import PajamaModel
@testable import PajamaTerminal

/// The author's live preview in the presenter: the problems overlay opens with what validation found,
/// scrolls, hides on Esc until the next change, leaves a mark on the status line and goes away by itself once
/// the story is clean; a change of the page's picture loads it again; the title follows story.json.
@MainActor @Suite struct LivePreviewPresenterTests {
    static let problems = [
        #"error: beats/intro.json: beat "intro": not valid JSON: line 1, column 3: expected a quoted field name"#,
        #"warning: story.json: reachability and endings not checked: beats/intro.json could not be read"#,
    ]

    @Test func problemsOpenOverThePageAndEscHidesThemKeepingAMark() {
        var h = PresenterHarness()
        h.show(Fixture.textPage)
        h.handle(.problems(Self.problems))
        var text = h.text()
        #expect(text.contains("2 problems in the story"), "\(text)")
        #expect(text.contains("beats/intro.json") && text.contains("not valid JSON"), "file and reason: \(text)")
        #expect(h.statusLine().contains("⚠ 2 problems"))
        #expect(h.press(.escape) == [])
        text = h.text()
        #expect(!text.contains("problems in the story") && text.contains("The lamp was lit."), "\(text)")
        #expect(h.statusLine().contains("⚠ 2 problems"), "the mark stays while problems remain")
    }

    @Test func theNextChangeShowsThemAgainAndAFixClosesThem() {
        var h = PresenterHarness()
        h.show(Fixture.textPage)
        h.handle(.problems(Self.problems))
        h.press(.escape)
        h.handle(.problems([Self.problems[0]]))
        #expect(h.text().contains("1 problem in the story"))
        h.handle(.problems([]))
        let text = h.text()
        #expect(!text.contains("problem") && text.contains("The lamp was lit."), "\(text)")
    }

    @Test func arrowsScrollTheProblemsAndAnyOtherKeyHidesThemAndActs() {
        var h = PresenterHarness(height: 10)
        h.show(Fixture.textPage)
        let many = (1...20).map { "error: beats/b\($0).json: beat \"b\($0)\": the beat file is missing" }
        h.handle(.problems(many))
        #expect(h.text().contains("b1.json") && !h.text().contains("b20.json"))
        h.press(.pageDown, .pageDown, .pageDown, .pageDown)
        #expect(h.text().contains("b20.json"), "scrolled to the end")
        #expect(h.press(.character("q")) == [.quit], "q hides the overlay and quits, as it does on a page")
    }

    @Test func anotherOverlayIsNotTakenOver() {
        var h = PresenterHarness()
        h.show(Fixture.textPage)
        h.press(.character("?"))
        h.handle(.problems(Self.problems))
        #expect(!h.text().contains("problems in the story"))
        #expect(h.statusLine().contains("⚠ 2 problems"))
    }

    @Test func aChangedPictureOfThePageIsLoadedAgainAndTheTitleFollows() {
        var h = PresenterHarness()
        let art = Fixture.path("assets/art.png")
        let beat = Beat(id: "pic", pages: [Page(id: "p", kind: .title(title: "Pictured", subtitle: nil), imageUrl: art)])
        #expect(h.show(.page(Fixture.page(beat))).contains(.loadPicture(art)))
        h.handle(.pictureLoaded(art, .textArt(lines: ["old"])))
        #expect(h.handle(.storyChanged(title: "Revised", assets: [Fixture.path("assets/other.png")])) == [], "not this page's picture")
        #expect(h.handle(.storyChanged(title: "Revised", assets: [art])) == [.loadPicture(art)])
        #expect(h.text().contains("Revised"))
        #expect(h.handle(.storyChanged(title: "Revised", assets: nil)) == [.loadPicture(art)], "anything may have changed: asked again")
    }

    @Test func aPictureThatCameBackWhileThePageWasEnteredAgainIsAskedForAgain() {
        var h = PresenterHarness()
        let art = Fixture.path("assets/art.png")
        let beat = Beat(id: "pic", pages: [Page(id: "p", kind: .title(title: "T", subtitle: nil), imageUrl: art)])
        let page = Fixture.page(beat)
        h.show(.page(page))
        h.handle(.pictureLoaded(art, .textArt(lines: ["old"])))
        #expect(h.handle(.storyChanged(title: "T", assets: [art])) == [.loadPicture(art)])
        // The page is entered again and waits (its beat is read again); the new picture arrives meanwhile.
        h.show(.loading(page.location, waitingFor: [.beat("pic")]))
        h.handle(.pictureLoaded(art, .textArt(lines: ["new"])))
        #expect(h.show(.page(page)) == [.loadPicture(art)], "asked again: the picture had no page to go to")
        h.handle(.pictureLoaded(art, .textArt(lines: ["new"])))
        #expect(h.show(.page(page)) == [], "shown: nothing more to ask")
    }

    @Test func aPictureThatFailedIsNotAskedForAtEveryLine() {
        var h = PresenterHarness()
        let art = Fixture.path("assets/art.png")
        let beat = Beat(id: "pic", pages: [Page(id: "p", kind: .text(lines: ["a", "b"]), imageUrl: art)])
        h.show(.page(Fixture.page(beat)))
        h.handle(.pictureFailed(art))
        #expect(h.show(.page(Fixture.page(beat, revealed: 2))) == [])
    }

    @Test func aBeatThatNowNamesAnotherPictureLoadsIt() {
        var h = PresenterHarness()
        let old = Fixture.path("assets/old.png"), new = Fixture.path("assets/new.png")
        let before = Beat(id: "pic", pages: [Page(id: "p", kind: .title(title: "T", subtitle: nil), imageUrl: old)])
        let after = Beat(id: "pic", pages: [Page(id: "p", kind: .title(title: "T", subtitle: nil), imageUrl: new)])
        h.show(.page(Fixture.page(before)))
        h.handle(.pictureLoaded(old, .textArt(lines: ["old"])))
        #expect(h.show(.page(Fixture.page(after))).contains(.loadPicture(new)), "the same page, shown again with a new picture")
    }
}
