import PajamaImage
import Testing

@testable import PajamaModel
@testable import PajamaTerminal

/// The presenter's frames: the loading grace period (virtual clock), resizing, scrolling a long page at
/// 40x12, clicks through the renderer's hit boxes, pictures.
@MainActor @Suite struct ReaderPresenterScreenTests {
    @Test func aSlowLoadShowsLoadingOnlyAfterTheGracePeriod() {
        var h = PresenterHarness()
        h.show(Fixture.textPage)
        let start = h.now
        h.show(.loading(StoryLocation(beatId: "fork", pageId: ""), waitingFor: [.beat("fork")]))
        #expect(h.presenter.deadline == start + ReaderPresenter.loadingGrace)
        // Inside the grace period the last page stays up.
        h.advance(by: .milliseconds(149))
        var text = h.text()
        #expect(text.contains("The lamp was lit.") && !text.contains("Loading"))
        h.advance(by: .milliseconds(1))
        text = h.text()
        #expect(text.contains("Loading the next page…") && !text.contains("The lamp was lit."))
        #expect(h.presenter.deadline == nil)
        // Bytes arriving redraw the Loading screen with its count.
        _ = h.frame()
        h.handle(.loading(.progress(.beat("fork"), TransferProgress(received: 340_000, expected: 1_500_000))))
        #expect(h.presenter.needsRedraw)
        #expect(h.text().contains("Loading the next page… 340 KB of 1.5 MB"))
        // The page arriving ends the Loading screen.
        h.show(Fixture.choicePage)
        #expect(h.text().contains("Which way?"))
    }

    @Test func aFastLoadNeverShowsLoading() {
        var h = PresenterHarness()
        h.show(Fixture.textPage)
        h.show(.loading(StoryLocation(beatId: "fork", pageId: ""), waitingFor: [.beat("fork")]))
        h.advance(by: .milliseconds(100))
        #expect(!h.text().contains("Loading"))
        h.show(Fixture.choicePage)
        h.advance(by: .milliseconds(100))
        #expect(!h.text().contains("Loading") && h.text().contains("Which way?"))
        #expect(h.presenter.deadline == nil)
    }

    @Test func theGracePeriodCountsFromTheFirstOfSeveralLoads() {
        var h = PresenterHarness()
        h.show(.loading(StoryLocation(beatId: "intro", pageId: ""), waitingFor: [.beat("intro")]))
        h.advance(by: .milliseconds(100))
        #expect(!h.text().contains("Loading"), "before the first page: blank")
        h.show(.loading(StoryLocation(beatId: "intro", pageId: "one"), waitingFor: [.image(Fixture.path("assets/a.png"))]))
        h.advance(by: .milliseconds(50))
        #expect(h.text().contains("Loading picture…"))
    }

    @Test func aResizeRedrawsAtTheNewSize() {
        var h = PresenterHarness()
        h.show(Fixture.textPage)
        _ = h.frame()
        h.handle(.resize(width: 30, height: 10))
        #expect(h.presenter.needsRedraw)
        let frame = h.frame().grid
        #expect(frame.width == 30 && frame.height == 10)
        #expect(frame.text().contains("The lamp"))
        h.handle(.resize(width: 12, height: 4))
        #expect(h.text().contains("terminal"))
        h.handle(.resize(width: 80, height: 24))
        #expect(h.text().contains("The lamp was lit."))
    }

    /// Every line of the page, as seen while scrolling with `key` from the top to the bottom.
    private func linesSeen(scrollingWith key: Key, steps: Int) -> (seen: [Int], frames: [String]) {
        var h = PresenterHarness(width: 40, height: 12)
        h.show(Fixture.longPage(lines: 30))
        var frames = [h.text()]
        for _ in 0..<steps {
            h.press(key)
            frames.append(h.text())
        }
        return (Array(Set(frames.flatMap(lineNumbers))).sorted(), frames)
    }

    /// The numbers of the "line N" rows of a frame, top to bottom (the ▲ ▼ arrows in the margin ignored).
    private func lineNumbers(_ frame: String) -> [Int] {
        frame.split(separator: "\n").compactMap { row in
            let words = row.filter { $0 != "▲" && $0 != "▼" }.split(separator: " ")
            return words.firstIndex(of: "line").flatMap { $0 + 1 < words.count ? Int(words[$0 + 1]) : nil }
        }
    }

    @Test func scrollingLineByLineAt40x12ShowsEveryLine() {
        let (seen, frames) = linesSeen(scrollingWith: .down, steps: 80)
        #expect(seen == Array(1...30))
        #expect(frames.first?.contains("▼") == true && frames.last?.contains("▲") == true)
        #expect(frames.last?.contains("▼") == false, "at the bottom")
    }

    @Test func scrollingByPagesAt40x12SkipsNoLine() {
        let (seen, frames) = linesSeen(scrollingWith: .pageDown, steps: 30)
        #expect(seen == Array(1...30))
        // Each page step moves on, and starts at most one row below the previous view (a blank between paragraphs).
        for (before, after) in zip(frames.map(lineNumbers), frames.map(lineNumbers).dropFirst()) where before != after {
            let (top, last) = (after.first ?? 0, before.last ?? 0)
            #expect(top > (before.first ?? 0) && top <= last + 1, "\(before) then \(after)")
        }
        // And back up to the top with PgUp, and a line with ↓ then k.
        var h = PresenterHarness(width: 40, height: 12)
        h.show(Fixture.longPage(lines: 30))
        for _ in 0..<30 { h.press(.pageDown) }
        #expect(lineNumbers(h.text()).last == 30 && lineNumbers(h.text()).first != 1)
        for _ in 0..<30 { h.press(.pageUp) }
        #expect(lineNumbers(h.text()).first == 1)
        h.press(.down)
        #expect(lineNumbers(h.text()).first == 2)
        h.type("k")
        #expect(lineNumbers(h.text()).first == 1)
    }

    @Test func aRevealedLineBelowTheFoldScrollsIntoView() {
        var h = PresenterHarness(width: 40, height: 12)
        let beat = Beat(id: "long", pages: [Page(id: "p", kind: .text(lines: (1...12).map { "line \($0)" }))])
        h.show(.page(Fixture.page(beat, revealed: 5)))
        #expect(!h.text().contains("line 5"))
        h.show(.page(Fixture.page(beat, revealed: 6)))
        #expect(h.text().contains("line 6"))
    }

    @Test func aClickOnAChoiceTakesItThroughTheHitBoxes() throws {
        var h = PresenterHarness()
        h.show(Fixture.choicePage)
        let frame = h.frame()
        #expect(frame.choices.map(\.index) == [0, 1, 2])
        let secondPosition = h.position(of: "2. Right")
        let second = try #require(secondPosition)
        #expect(frame.choice(atX: second.x + 4, y: second.y) == 1)
        #expect(h.press(.click(x: second.x + 4, y: second.y)) == [.move(.choose(1))])
        // Outside the choices: nothing.
        #expect(h.press(.click(x: 0, y: 0)) == [])
        let promptPosition = h.position(of: "Which way?")
        let prompt = try #require(promptPosition)
        #expect(h.press(.click(x: prompt.x, y: prompt.y)) == [])
        // Under the restart prompt nothing can be clicked.
        h.type("r")
        #expect(h.frame().choices.isEmpty)
        #expect(h.press(.click(x: second.x + 4, y: second.y)) == [])
    }

    @Test func aPictureIsLoadedForItsPageVisitAndRenderedForItsBox() throws {
        let a = Fixture.path("assets/a.png"), b = Fixture.path("assets/b.png")
        let beat = Beat(id: "pics", pages: [
            Page(id: "one", kind: .text(lines: ["With a picture."]), imageUrl: a),
            Page(id: "two", kind: .text(lines: ["Same picture."]), imageUrl: a),
            Page(id: "three", kind: .text(lines: ["Another."]), imageUrl: b),
        ])
        var h = PresenterHarness()
        #expect(h.show(.page(Fixture.page(beat, 0))) == [.leavePage, .loadPicture(a)])
        _ = h.frame()
        #expect(h.renderEffects == [], "nothing to render before the picture arrives")
        let image = StoryImage.textArt(lines: ["@@@@"])
        h.handle(.pictureLoaded(a, image))
        _ = h.frame()
        guard case .requestPicture(let key, let asked) = try #require(h.renderEffects.first) else {
            Issue.record("expected a render request, got \(h.renderEffects)")
            return
        }
        #expect(asked == image && key.path == a)
        #expect(key.width > 0 && key.height > 0)
        let cells = PictureCells(width: 4, rows: [Array(repeating: PictureCells.Cell(text: "@"), count: 4)])
        h.handle(.pictureCells(key, cells))
        #expect(h.text().contains("@@@@"))
        _ = h.frame()
        #expect(h.renderEffects == [], "the same box is not rendered twice")
        // The next page has the same picture: the visit changes, the picture stays.
        #expect(h.show(.page(Fixture.page(beat, 1))) == [.leavePage])
        #expect(h.text().contains("@@@@"))
        // A resize asks for the new box.
        h.handle(.resize(width: 60, height: 20))
        _ = h.frame()
        if case .requestPicture(let resized, _) = h.renderEffects.first { #expect(resized != key) } else { Issue.record("no render request after a resize") }
        // The terminal's late replies said pixels: the picture is asked for in the new look, at the same box.
        let kitty = PictureLook(mode: .truecolor, pixels: PixelFormat(.kitty, cellWidth: 10, cellHeight: 20))
        h.handle(.pictureLook(kitty))
        _ = h.frame()
        if case .requestPicture(let pixels, _) = h.renderEffects.first { #expect(pixels.look == kitty && pixels.path == a) } else { Issue.record("no render request after the look changed") }
        // Another picture: loaded for the new visit; one that fails shows the placeholder.
        #expect(h.show(.page(Fixture.page(beat, 2))) == [.leavePage, .loadPicture(b)])
        h.handle(.pictureFailed(b))
        #expect(h.text().contains("picture unavailable"))
        // Cells for a superseded render are dropped.
        #expect(h.handle(.pictureCells(key, cells)) == [])
        #expect(!h.text().contains("@@@@"))
    }
}
