import PajamaImage
import Testing

@testable import PajamaModel
@testable import PajamaTerminal

/// The selected choice stays on screen when the page's layout changes under it (issue 27 item 4): a picture
/// that arrives after the reader moved the selection takes rows above the choices, and a smaller terminal
/// has fewer rows; either way Enter must never take a choice the reader cannot see. (SmallTerminalEndToEndTests
/// failed under load when ↓ was pressed before the page's picture had arrived.)
@MainActor @Suite struct SelectionInViewTests {
    static let picture = Fixture.path("assets/storm.png")
    static let beat = Beat(id: "storm", pages: [
        Page(id: "what_now", kind: .choice(prompt: "The Puffin needs a light. What will Mina do?", choices: [
            Choice(text: "Climb the hundred stairs to the lamp", targetBeatId: "stairs"),
            Choice(text: "Take the little boat to the shore", targetBeatId: "shore"),
        ]), imageUrl: picture),
    ])

    @Test func aPictureArrivingAfterTheSelectionMovedKeepsItInView() {
        var h = PresenterHarness(width: 40, height: 12)
        h.show(.page(Fixture.page(Self.beat)))
        h.press(.down)
        #expect(h.text().contains("Take the little"), "\(h.text())")
        Self.deliverPicture(&h)
        let text = h.text()
        #expect(text.contains("Take the little"), "the selected choice left the screen:\n\(text)")
    }

    @Test func aSmallerTerminalKeepsTheSelectionInView() {
        var h = PresenterHarness(width: 80, height: 24)
        h.show(.page(Fixture.page(Self.beat)))
        Self.deliverPicture(&h)
        h.press(.down)
        #expect(h.text().contains("Take the little"))
        h.handle(.resize(width: 40, height: 12))
        let text = h.text()
        #expect(text.contains("Take the little"), "the selected choice left the screen:\n\(text)")
    }

    /// What the reader scrolled to by hand is kept: a picture arriving does not pull the page to the choices
    /// when the selection was never moved.
    @Test func anUntouchedSelectionDoesNotPullThePageDown() {
        var h = PresenterHarness(width: 40, height: 12)
        h.show(.page(Fixture.page(Self.beat)))
        Self.deliverPicture(&h)
        #expect(h.text().contains("The Puffin"), "\(h.text())")
    }

    /// The picture loaded and its cells rendered for the box the frame asked (as the controller's renderer
    /// answers): only then does the box take its rows.
    static func deliverPicture(_ h: inout PresenterHarness) {
        h.handle(.pictureLoaded(picture, .textArt(lines: Array(repeating: "@@@@@@@@", count: 6))))
        _ = h.frame()
        guard case .requestPicture(let key, _) = h.renderEffects.first else {
            Issue.record("expected a render request, got \(h.renderEffects)")
            return
        }
        let row = Array(repeating: PictureCells.Cell(text: "@"), count: key.width)
        h.handle(.pictureCells(key, PictureCells(width: key.width, rows: Array(repeating: row, count: key.height))))
        #expect(h.text().contains("@@@"), "the picture is on screen")
    }
}
