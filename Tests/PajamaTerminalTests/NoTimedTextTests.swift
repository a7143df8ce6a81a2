import Foundation
import PajamaTestSupport
import Testing

@testable import PajamaTerminal

/// "No timed text" (issue 35, item 10): each page shown whole at once and no auto-forward, a setting kept in
/// reader.json, `w` while reading, `--no-timed-text` for `read` (docs/reader.md, "No timed text").
@MainActor @Suite struct NoTimedTextTests {
    @Test func wTurnsTimedTextOffAndAutoForwardIsNotOffered() {
        var h = PresenterHarness()
        h.show(Fixture.textPage)
        h.press(.character("a"))
        #expect(h.presenter.autoForward != .off)
        #expect(h.press(.character("w")) == [.setTimedText(false)])
        #expect(h.presenter.autoForward == .off)
        #expect(h.statusLine().contains("no timed text"), "\(h.statusLine())")
        h.press(.character("a"))
        #expect(h.presenter.autoForward == .off)
        #expect(h.statusLine().contains("no auto-forward"), "\(h.statusLine())")
        #expect(h.press(.character("w")) == [.setTimedText(true)])
    }

    @Test func theSettingIsSavedBesideTheThemeAndLoadsAgain() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let file = folder.url.appendingPathComponent("pajama/reader.json")
        ReaderSettings(theme: "night", timedText: false).save(to: file)
        #expect(ReaderSettings.load(from: file) == ReaderSettings(theme: "night", timedText: false))
        #expect(!ReaderSettings.load(from: file).hasTimedText)
        #expect(ReaderSettings(theme: "night").hasTimedText)
    }

    /// The real loop over a line-by-line story: with timed text off, a page comes whole; `w` is remembered
    /// with the theme chosen in the same session.
    @Test func aLineByLinePageComesWholeAndTheSettingIsRemembered() async throws {
        let s = try await ReaderControllerHeadlessTests().start()
        defer { s.dir.remove() }
        let t = s.terminal
        #expect(await t.waitForFrame(containing: "The Hall"))
        t.push(.character("t"), .character("w"), .character(" "))
        #expect(await t.waitForFrame { $0.contains("You walk in.") && $0.contains("The doors wait.") }, "\(t.text)")
        t.push(.character("q"))
        _ = await s.run.value
        await s.viewModel.close()
        let saved = ReaderSettings.load(from: s.paths.readerSettings)
        #expect(saved.timedText == false)
        #expect(saved.theme != nil, "the theme chosen with t in the same session is kept beside it")
    }

    @Test func turnedOffOnAPageHalfRevealedTheRestComesAtOnce() async throws {
        let s = try await ReaderControllerHeadlessTests().start()
        defer { s.dir.remove() }
        let t = s.terminal
        #expect(await t.waitForFrame(containing: "The Hall"))
        t.push(.character(" "))
        #expect(await t.waitForFrame(containing: "You walk in."))
        #expect(!t.text.contains("The doors wait."))
        t.push(.character("w"))
        #expect(await t.waitForFrame(containing: "The doors wait."), "\(t.text)")
        t.push(.character("q"))
        _ = await s.run.value
        await s.viewModel.close()
    }
}
