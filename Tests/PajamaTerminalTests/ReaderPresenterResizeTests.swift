import Testing

@testable import PajamaTerminal

/// Resizing to the smallest terminal and straight back: the page is whole again (the fault matrix's 1x1 row).
@MainActor @Suite struct ReaderPresenterResizeTests {
    @Test(arguments: [(1, 1), (1, 24), (80, 1), (2, 2)])
    func aTinyTerminalAndBackShowsTheWholePage(_ tiny: (Int, Int)) {
        var h = PresenterHarness()
        h.show(Fixture.choicePage)
        #expect(h.text().contains("Which way?"))
        h.handle(.resize(width: tiny.0, height: tiny.1))
        _ = h.frame()
        h.handle(.resize(width: 80, height: 24))
        let text = h.text()
        #expect(text.contains("Which way?") && text.contains("Back to bed"), "\(text)")
    }
}
