import Testing
@testable import PajamaTwine

/// Harlowe 3's core macros, each against the behaviour its manual documents (its examples, as far as a
/// terminal shows them).
@Suite struct HarloweMacroTests {
    @Test func setPutMoveAndPrinting() throws {
        #expect(try text(of: "(set: $x to 3, _y to $x + 2)$x _y") == "3 5")
        #expect(try text(of: "(set: $a to 1)(set: $a to it + 1)$a") == "2")
        #expect(try text(of: "(put: 'hat' into $thing)$thing") == "hat")
        #expect(try text(of: "(set: $a to 'x')(move: $a into $b)$b (print: $a)") == "x 0")
        #expect(try text(of: "(set: $arr to (a: 1, 2, 3))(move: $arr's 1st into $first)$first (print: $arr)") == "1 2,3")
        #expect(try text(of: "(print: 2 + 3 * 4) (print: (10 - 4) / 4) (print: 7 % 3)") == "14 1.5 1")
        #expect(try text(of: "(print: 'Foo' + 'bar')") == "Foobar")
    }

    @Test func conditions() throws {
        #expect(try text(of: "(set: $legs to 8)(if: $legs is 8)[You're a spider!]") == "You're a spider!")
        #expect(try text(of: "(if: false)[A](else-if: true)[B](else:)[C]") == "B")
        #expect(try text(of: "(if: false)[A](else-if: false)[B](else:)[C]") == "C")
        #expect(try text(of: "(if: true)[A](else:)[C]") == "A")
        #expect(try text(of: "(unless: 1 > 2)[Yes]") == "Yes")
        #expect(try text(of: "(set: $a to 2)(if: $a is 1 or 2)[elided]") == "elided")
        #expect(try text(of: "(set: $a to 5)(if: $a > 2 and it < 10)[between]") == "between")
        #expect(try text(of: "(print: (cond: false, 'a', true, 'b', 'c'))") == "b")
        #expect(try text(of: "(print: (cond: false, 'a', 'c'))") == "c")
        #expect(try text(of: "(if: 'snake' is not 'cake')[ok] (if: not false)[ok]") == "ok ok")
    }

    @Test func valuesAndOperators() throws {
        #expect(try text(of: "(set: $a to (a: 'x', 'y', 'z'))$a's 1st $a's last (print: 2ndlast of $a) (print: $a's length)") == "x z y 3")
        #expect(try text(of: "(print: (a: 1, 2) contains 2) (print: 'go' is in 'going') (print: 3 is not in (a: 1))") == "true true true")
        #expect(try text(of: "(set: $d to (dm: 'name', 'Ada', 'age', 36))$d's name (print: $d's age + 1)") == "Ada 37")
        #expect(try text(of: "(set: $d to (dm: 'a', 1))(set: $d's b to 2)(print: (datanames: $d))") == "a,b")
        #expect(try text(of: "(print: (ds: 1, 2, 2, 3) is (ds: 3, 2, 1))") == "true")
        #expect(try text(of: "(print: (a: 1, 2, 3) - (a: 2))") == "1,3")
        #expect(try text(of: "(print: (a: ...(a: 1, 2), 3))") == "1,2,3")
        #expect(try text(of: "(print: 'abc''s 2nd)") == "b")
        #expect(try text(of: "(print: 5 is a number) (print: 'x' is a string)") == "true true")
        #expect(try text(of: "(print: (str: 4, 'x')) (print: (num: '12') + 1)") == "4x 13")
        #expect(try text(of: "(print: (range: 2, 5)) (print: (count: (a: 1, 1, 2), 1)) (print: (min: 3, 1)) (print: (max: 3, 1))") == "2,3,4,5 2 1 3")
        #expect(try text(of: "(print: (round: 2.5)) (print: (floor: 2.7)) (print: (ceil: 2.1)) (print: (abs: -4))") == "3 2 3 4")
        #expect(try text(of: "(print: (sorted: 'b', 'a', 'c')) (print: (rotated: 1, 'a', 'b', 'c'))") == "a,b,c c,a,b")
        #expect(try text(of: "(print: (substring: 'abcde', 2, 4)) (print: (subarray: (a: 1, 2, 3, 4), 2, 3))") == "bcd 2,3")
        #expect(try text(of: "(print: (uppercase: 'abc')) (print: (upperfirst: 'abc')) (print: (lowercase: 'ABC'))") == "ABC Abc abc")
    }

    @Test func errorsAreNoticesInPlace() throws {
        #expect(try text(of: "a (print: 1 / 0) b") == "a <span class=\"dim\">[(print:) cannot divide by zero]</span> b")
        #expect(try text(of: "(print: 'a' + 1)") == "<span class=\"dim\">[(print:) cannot add a number to a string]</span>")
        #expect(try text(of: "(set: $x to )") .contains("(set:)"))
    }

    /// A timed hook is shown at once, once, as Harlowe's page looks when its time has come: no word of the wait
    /// (Harlowe writes none).
    @Test func timedHooksAreShownAtOnceWithoutANotice() throws {
        let shown = try text(of: "A dim room.\n\n(after: 1.5s)[(transition:\"dissolve\")[Everything feels soft.]] (live: 1s)[Tick.(stop:)] (more:)[Now.] (event: when $x is 1)[Then.]")
        #expect(shown == "A dim room.\nEverything feels soft. Tick. Now. Then.")
    }

    @Test func unsupportedMacrosAreNamed() throws {
        let runtime = try harlowe(":: Start\nBefore (live: 2s)[tick] (input-box: 'x') after")
        let moment = runtime.start()
        #expect(moment.text == "Before tick <span class=\"dim\">[(input-box:) is not played in Pajama]</span> after")
        #expect(moment.unsupported == ["input-box"])
    }

    @Test func printAndDisplay() throws {
        #expect(try text(of: "(print: \"''hi''\")") == "<b>hi</b>")
        #expect(try text(of: "Here: (display: 'Other')") == "Here: Other passage.")
        #expect(try text(of: "(display: 'Nowhere')") == "<span class=\"dim\">[(display:) there is no passage named \"Nowhere\"]</span>")
    }

    @Test func randomnessIsSeeded() throws {
        let first = try text(of: "(print: (random: 1, 1000)) (either: 'a', 'b', 'c', 'd') (print: (shuffled: 1, 2, 3, 4))", seed: 7)
        let again = try text(of: "(print: (random: 1, 1000)) (either: 'a', 'b', 'c', 'd') (print: (shuffled: 1, 2, 3, 4))", seed: 7)
        #expect(first == again)
        let values = Set(try (0..<20).map { try text(of: "(print: (random: 1, 6))", seed: $0) })
        #expect(values.isSubset(of: ["1", "2", "3", "4", "5", "6"]) && values.count > 2)
    }

    @Test func visitsAndHistory() throws {
        let runtime = try harlowe(":: Start\n(print: visits) (print: (visited: 'Room')) (print: (history:))\n[[Room]]\n\n:: Room\nvisits (print: (history:)) (print: (visited: 'Start'))\n[[Start]]")
        #expect(runtime.start().text == "1 false")
        #expect(try runtime.choose(0).text == "visits Start true")  // a word in prose, a keyword in a macro
        #expect(try runtime.choose(0).text == "2 true Start,Room")
    }

    @Test func gotoAndLinkGoto() throws {
        let runtime = try harlowe(":: Start\nLost text.(goto: 'B')\n\n:: B\nB here. (link-goto: 'Back', 'Start') (link-goto: 'Other')\n\n:: Other\nEnd.")
        let moment = runtime.start()
        #expect(moment.passage == "B")
        #expect(moment.text == "B here. <u>Back</u> <u>Other</u>")  // links in a sentence stay in its text
        #expect(moment.links.map(\.action) == [.goto("Start"), .goto("Other")])
        let loop = try harlowe(":: Start\n(goto: 'Start')").start()
        #expect(loop.error?.contains("goes round for ever") == true)
    }

    @Test func linkRevealAndClick() throws {
        let runtime = try harlowe(":: Start\nA door. (link: 'Knock')[Someone answers. [[Enter->In]]] (link-reveal: 'Wait')[ and wait.] [[Leave->Out]]\n\n:: In\nIn.\n\n:: Out\nOut.")
        let start = runtime.start()
        #expect(start.labels == ["Knock", "Wait", "Leave"])
        #expect(start.text == "A door. <u>Knock</u> <u>Wait</u> <u>Leave</u>")
        let knocked = try runtime.choose(0)
        #expect(knocked.text == "Someone answers. <u>Enter</u>")
        #expect(knocked.labels == ["Enter", "Wait", "Leave"])
        let waited = try runtime.choose(1)
        #expect(waited.text == "Wait  and wait.")
        #expect(waited.labels == ["Enter", "Leave"])
        let clicked = try harlowe(":: Start\n|bell>[The bell.] (click: ?bell)[It rings.]").start()
        #expect(clicked.labels == ["The bell."])
    }

    @Test func showHideReplaceAppendPrepend() throws {
        #expect(try text(of: "|a>[cat] (replace: ?a)[dog]") == "dog")
        #expect(try text(of: "|a>[cat] (append: ?a)[s]") == "cats")
        #expect(try text(of: "|a>[cat] (prepend: ?a)[big ]") == "big cat")
        #expect(try text(of: "|a>[cat] (hide: ?a)") == "")
        #expect(try text(of: "|a)[cat] (show: ?a)") == "cat")
        #expect(try text(of: "(hidden:)|b>[secret](show: ?b)") == "secret")
        let runtime = try harlowe(":: Start\n|note)[The note says hi.](link: 'Read')[(show: ?note)]")
        #expect(runtime.start().text == "")
        #expect(try runtime.choose(0).text == "The note says hi.")
    }

    /// A link's hook that changes a hook of the text shown before it: that text is shown again with the change
    /// in place (as the browser's page looks after the click), the hook's own text where its link was.
    @Test func aLinksHookChangesTheTextAboveInPlace() throws {
        let sack = try harlowe(":: Start\nThe mill creaks. |sack>[A sack leans.]\n(link: 'Open the sack')[(replace: ?sack)[The sack holds flour.]]\n[[Sea]]\n\n:: Sea\nSea.")
        #expect(sack.start().text == "The mill creaks. A sack leans.")
        let opened = try sack.choose(0)
        #expect(opened.text == "The mill creaks. The sack holds flour.")
        #expect(opened.labels == ["Sea"])
        let door = try harlowe(":: Start\nA |door>[shut door]. (link-reveal: 'Knock')[ and wait(append: ?door)[, now open]]\n[[Sea]]\n\n:: Sea\nSea.")
        #expect(door.start().text == "A shut door. <u>Knock</u>")
        #expect(try door.choose(0).text == "A shut door, now open. Knock and wait")
        let note = try harlowe(":: Start\nOn the desk: |note)[the note says hi.](link: 'Read')[(show: ?note) You read it.]")
        #expect(note.start().text == "On the desk: <u>Read</u>")
        #expect(try note.choose(0).text == "On the desk: the note says hi. You read it.")
        // A (link-repeat:) stays: its hook's text goes after the changed text, and the link is offered again.
        let bell = try harlowe(":: Start\nRings: |n>[0]. (set: $n to 0)(link-repeat: 'Ring')[(set: $n to it + 1)(replace: ?n)[$n]Ding.]")
        _ = bell.start()
        let rung = try bell.choose(0)
        #expect(rung.text == "Rings: 1. <u>Ring</u>\nDing.")
        #expect(rung.labels == ["Ring"])
        // The state keeps the text shown (saved with progress), so a later link changes it again.
        #expect(try bell.choose(0).text.hasPrefix("Rings: 2."))
    }

    @Test func styleChangers() throws {
        #expect(try text(of: "(text-style: 'bold')[loud] (transition: 'dissolve')[soft]") == "<b>loud</b> soft")
        // Colours (Harlowe's own values, #hex, (rgb:), (hsl:), CSS names in strings) and alignment: the HTML the
        // markup reader draws (docs/twine.md, "Colours and alignment").
        #expect(try text(of: "(text-colour: red)[red] (colour: #a4e)[hex] (color: (rgb: 255, 128, 0))[rgb] (text-color: 'teal')[css]")
            == "<span style=\"color: #e61919\">red</span> <span style=\"color: #a4e\">hex</span> <span style=\"color: #ff8000\">rgb</span> <span style=\"color: teal\">css</span>")
        #expect(try text(of: "(text-colour: (hsl: 120, 1, 0.5))[green] (text-colour: transparent)[none]") == "<span style=\"color: #00ff00\">green</span> none")
        // Blends, as Harlowe's + does (each channel (a + b) × 0.6, at most 255): red + white, #a4e + black.
        #expect(try text(of: "(text-colour: red + white)[pink] (colour: #a4e + black)[dim]")
            == "<span style=\"color: #ffa8a8\">pink</span> <span style=\"color: #66298f\">dim</span>")
        // Transparency (Harlowe's colour data: a, from 0 to 1) is kept as #rrggbbaa; blending with transparent
        // halves it, as Harlowe's + takes the mean of the alphas.
        #expect(try text(of: "(text-colour: (rgba: 230, 25, 25, 0.5))[faint] (colour: (hsla: 120, 1, 0.5, 0.25))[fainter] (colour: red + transparent)[half]")
            == "<span style=\"color: #e6191980\">faint</span> <span style=\"color: #00ff0040\">fainter</span> <span style=\"color: #8a0f0f80\">half</span>")
        #expect(try text(of: "(colour: (rgba: 1, 2, 3, 1))[opaque]") == "<span style=\"color: #010203\">opaque</span>")
        // A colour's data names: r, g, b (0-255), a (0-1), h (whole degrees), s and l (0-1).
        #expect(try text(of: "(print: red's r), (print: red's g), (print: red's b), (print: red's a), (print: red's h), (print: (rgb: 0, 0, 255)'s h)")
            == "230, 25, 25, 1, 0, 240")
        #expect(try text(of: "(print: (rgba: 0, 0, 0, 0.5)'s a), (print: white's l), (print: black's s), (print: (rgb: 255, 0, 0)'s s)") == "0.5, 1, 0, 1")
        #expect(try text(of: "(set: $c to (rgb: 10, 20, 30))(print: (rgb: $c's b, $c's g, $c's r))") == "#1e140a")
        #expect(try text(of: "(print: red's nope)").contains("a colour has no \"nope\""))
        #expect(try text(of: "(align: '==>')[right]") == "<div style=\"text-align: right\">right</div>")
        #expect(try text(of: "(align: '=><=')[one\ntwo]") == "<div style=\"text-align: center\">one</div>\n<div style=\"text-align: center\">two</div>")
        // Aligner markup: modal to the next aligner or the hook's end; justified is left; a mixed one by its ratio.
        // (A line starts by closing the aligner before it: the markup reader aligns a line by its first letter.)
        let lines = try text(of: "Top\n=><=\nMiddle\n==>\nSigned\n<==\nBottom").split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines[0] == "Top")
        #expect(lines[1] == "<div style=\"text-align: center\">Middle</div>")
        #expect(lines[2].hasSuffix("<div style=\"text-align: right\">Signed</div>"))
        #expect(lines[3].hasSuffix("<div style=\"text-align: left\">Bottom</div>"))
        #expect(try text(of: "===><=\nMostly right") == "<div style=\"text-align: right\">Mostly right</div>")
        #expect(try text(of: "=><=====\nMostly left") == "<div style=\"text-align: left\">Mostly left</div>")
        #expect(try text(of: "<==>\nJustified") == "<div style=\"text-align: left\">Justified</div>")
        #expect(try text(of: "=|||=\nA column") == "A column")
        #expect(try text(of: "(set: $s to (text-style: 'italic'))$s[quiet]").contains("quiet"))
    }

    /// The Harlowe Audio Library's macros (HAL v2's guide, "Track Commands"): a play is a page sound, a looping
    /// track the background loop, stop ends it.
    @Test func halTracksPlayLoopAndStop() throws {
        let runtime = try harlowe("""
            :: Start
            (track: 'beep', 'play')Beep.
            (track: 'rain', 'loop', true)(track: 'rain', 'play')Rain starts.
            (if: (track: 'rain', 'isplaying'))[It plays.] (track: 'rain', 'volume', 0.5)(track: 'rain', 'play')
            [[On]]

            :: On
            (newtrack: 'wind', './audio/wind.mp3', './audio/wind.ogg')(track: 'wind', 'play')Wind.
            (track: 'rain', 'stop')Dry.
            (track: 'beep', 'explode')(track: 'nothing', 'play')(masteraudio: 'stopall')(masteraudio: 'dance')

            :: hal.tracks
            beep: ./audio/beep.mp3, ./audio/beep.ogg
            rain: https://example.com/rain.ogg, audio/rain.ogg
            """)
        let start = runtime.start()
        #expect(start.lines.map(\.text) == ["Beep.", "Rain starts.", "It plays."])
        #expect(start.lines[0].sounds == ["audio/beep.mp3"] && start.lines[0].loop == nil)
        #expect(start.lines[1].loop == .play("audio/rain.ogg") && start.lines[1].sounds.isEmpty)
        // Played again while it loops: it goes on, nothing new.
        #expect(start.lines[2].loop == nil && start.lines[2].sounds.isEmpty)
        #expect(runtime.state.loop == "audio/rain.ogg")
        let on = try runtime.choose(0)
        #expect(on.lines[0].sounds == ["audio/wind.mp3"])
        #expect(on.lines[1].loop == .stop)
        #expect(runtime.state.loop == nil)
        #expect(on.lines[2].text.contains("[(track: 'explode') is not played in Pajama]"))
        #expect(on.lines[2].text.contains("no track named"))
        #expect(on.lines[2].text.contains("[(masteraudio: 'dance') is not played in Pajama]"))
        #expect(on.unsupported == ["(track: 'explode')", "(masteraudio: 'dance')"])
        // The state keeps what it needs to go on: tracks made by (newtrack:), the looping ones, the loop.
        #expect(runtime.state.tracks == ["wind": "audio/wind.mp3"] && runtime.state.looping == ["rain"])
    }

    /// Lambdas, with the manual's examples (Harlowe 3's "Lambda data" and each macro's article).
    @Test func lambdaMacros() throws {
        #expect(try text(of: "(print: (find: _item where _item's 1st is 'A', 'Thorn', 'Apple', 'Cherry', 'Aubergine'))") == "Apple,Aubergine")
        #expect(try text(of: "(print: (altered: _item via _item * 2, 1, 2, 3))") == "2,4,6")
        #expect(try text(of: "(print: (altered: _a where _a > 1 via _a + 10, 1, 2, 3))") == "12,13")
        #expect(try text(of: "(print: (folded: _a making _total via _total + \".\" + _a, \"E\", \"a\", \"s\", \"y\"))") == "E.a.s.y")
        #expect(try text(of: "(print: (folded: _a where _a > 1 making _t via _t + _a, 0, 1, 2, 3))") == "5")
        #expect(try text(of: "(print: (all-pass: _a where _a > 2, 1, 3, 5)) (print: (some-pass: _a where _a > 2, 1, 3, 5)) (print: (none-pass: _a where _a > 2, 1, 3, 5))")
            == "false true false")
        #expect(try text(of: "(set: $p to (a: (dm: 'name', 'Bo', 'age', 9), (dm: 'name', 'Al', 'age', 12)))(print: (altered: _x via _x's name, ...(sorted: _x via _x's age * -1, ...$p)))")
            == "Al,Bo")
        #expect(try text(of: "(print: (sorted: via it * -1, 1, 3, 2))") == "3,2,1")
        #expect(try text(of: "(print: (find: where it > 2, 1, 5, 3))") == "5,3")
        #expect(try text(of: "(print: (find: _s where _s contains ',', 'a,b', 'c'))") == "a,b")
        // A lambda kept in a variable is a value like any other.
        #expect(try text(of: "(set: $big to _n where _n > 10)(print: (find: $big, 5, 50))") == "50")
        // (for:) repeats its hook for each value, the variable holding it.
        #expect(try text(of: "(for: each _name, 'Ann', 'Bo')[Hi _name. ]") == "Hi Ann. Hi Bo.")
        #expect(try text(of: "(for: each _n where _n > 1, 1, 2, 3)[_n]") == "23")
        // Errors are notices naming the macro and the reason.
        #expect(try text(of: "(altered: _a where _a > 1, 1, 2)").contains("(altered:) needs a via lambda"))
        #expect(try text(of: "(find: 3, 1)").contains("(find:) needs a lambda"))
    }

    @Test func startupHeaderAndFooterPassages() throws {
        let runtime = try harlowe(":: Start\nBody [[Next]]\n\n:: Init [startup]\n(set: $gold to 5)\n\n:: Top [header]\nGold: $gold\n\n:: Bottom [footer]\n-- end --\n\n:: Next\nNext body")
        #expect(runtime.start().text == "Gold: 5\nBody <u>Next</u>\n-- end --")
        #expect(try runtime.choose(0).text == "Gold: 5\nNext body\n-- end --")
    }

    @Test func stateSurvivesACopy() throws {
        let runtime = try harlowe(":: Start\n(set: $n to (either: 1, 2, 3, 4, 5, 6))(link: 'Roll')[(print: (random: 1, 100))]")
        _ = runtime.start()
        let saved = runtime.state
        let first = try runtime.choose(0).text
        runtime.state = saved
        #expect(try runtime.choose(0).text == first)
        let json = try JSONEncoder().encode(saved)
        let decoded = try JSONDecoder().decode(HarloweState.self, from: json)
        #expect(decoded == saved)
    }
}

import Foundation

/// Whether a story may loop a sound is found by a byte search, letters compared without case (Harlowe's macro
/// names are), over every passage.
@Suite struct HarloweLoopScanTests {
    @Test func aTrackOrAudioNearLoopIsFoundWhateverItsCase() throws {
        #expect(ASCIISearch.contains("a (TRACK: 'rain', 'Loop', true)", "(track:"))
        #expect(ASCIISearch.contains("<Audio src=x loop>", "<audio"))
        #expect(!ASCIISearch.contains("(trac", "(track:"))
        #expect(!ASCIISearch.contains("é(tráck:", "(track:"))
        #expect(ASCIISearch.contains("LOOP", "loop") && !ASCIISearch.contains("lo", "loop"))
        let looping = try Twee.parse(":: StoryTitle\nT\n\n:: Start\nHi [[Next]]\n\n:: Next\n(Track: 'rain', 'LOOP', true)\n")
        let playing = try Twee.parse(":: StoryTitle\nT\n\n:: Start\n(track: 'rain', 'play') [[Next]]\n\n:: Next\nEnd\n")
        #expect(HarloweAudio.usesLoops(looping))
        #expect(!HarloweAudio.usesLoops(playing))
    }
}
