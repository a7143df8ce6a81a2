import PajamaImage
import Testing

@testable import PajamaTerminal

/// Co-reading roles in the presenter: a follower's navigation moves nobody, a host's status line and help.
@MainActor @Suite struct ReaderPresenterRoleTests {
    @Test func aFollowersNavigationMovesNobodyAndSaysWhomItFollows() throws {
        var h = PresenterHarness(role: .follower(owner: "Ana"))
        h.show(Fixture.textPage)
        for key in [Key.character(" "), .enter, .right, .character("l"), .left, .character("h"), .backspace] {
            #expect(h.press(key) == [], "\(key)")
            #expect(h.text().contains("only Ana turns the pages"), "\(key)")
        }
        #expect(h.type("r") == [])
        #expect(!h.text().contains("Restart from the beginning?") && h.text().contains("only Ana turns the pages"))
        h.show(Fixture.choicePage)
        let choicePosition = h.position(of: "2. Right")
        let choice = try #require(choicePosition)
        for key in [Key.character("1"), .character("2"), .down, .up, .character("j"), .enter, .click(x: choice.x + 4, y: choice.y)] {
            #expect(h.press(key) == [], "\(key)")
        }
        #expect(h.text().contains("› 1. Left"), "the selection did not move")
        h.show(Fixture.failed)
        #expect(h.type("s") == [] && h.press(.left) == [])
        #expect(h.type("r") == [.retry], "retrying the same place moves nobody")
    }

    @Test func aFollowerStillQuitsGetsHelpSoundThemeAndScrolls() {
        var h = PresenterHarness(width: 40, height: 12, sound: SoundStatus(state: .sampleCache, volume: 50),
                                 role: .follower(owner: "Ana"))
        h.show(Fixture.longPage(lines: 30))
        #expect(h.type("m") == [.toggleMute])
        #expect(h.type("+") == [.setVolume(60)])
        #expect(h.type("t") == [.applyTheme("paper")])
        let before = h.text()
        #expect(h.press(.pageDown) == [])
        #expect(h.text() != before, "scrolled")
        #expect(h.press(.down) == [])
        h.type("?")
        #expect(h.text().contains("take that choice"))
        h.press(.escape)
        #expect(h.presenter.quitsAtOnce(.character("q")))
        #expect(h.type("q") == [.quit])
    }

    @Test func whenTheOwnerEndsTheFollowerReadsOnSolo() {
        var h = PresenterHarness(role: .follower(owner: "Ana"))
        h.show(Fixture.textPage)
        #expect(h.type(" ") == [])
        h.handle(.sessionEnded)
        #expect(h.presenter.role == .solo)
        #expect(h.text().contains("Ana ended the session"))
        #expect(h.type(" ") == [.move(.advance)])
        // A solo reader ignores a session end.
        h.handle(.sessionEnded)
        #expect(!h.text().contains("ended the session"))
    }

    @Test func theHostSeesItsFollowersAndTheJoinCommand() {
        let join = "pajama join http://127.0.0.1:7777/ --token abc"
        var h = PresenterHarness(role: .host(join: join, followers: 0))
        h.show(Fixture.textPage)
        #expect(h.text().contains("hosting · 0 following"))
        h.handle(.role(.host(join: join, followers: 2)))
        #expect(h.text().contains("hosting · 2 following"))
        #expect(h.type(" ") == [.move(.advance)], "the host turns the pages")
        #expect(!h.text().contains(join))
        h.type("?")
        let help = h.text()
        #expect(help.contains("take that choice") && help.contains(join))
        // Solo readers show neither.
        var solo = PresenterHarness()
        solo.show(Fixture.textPage)
        solo.type("?")
        #expect(!solo.text().contains("hosting") && !solo.text().contains("join"))
    }
}
