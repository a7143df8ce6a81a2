import Testing
@testable import PajamaTwine

/// Links, hooks and text markup, as Harlowe 3's manual describes them.
@Suite struct HarloweMarkupTests {
    @Test func linksInTheirThreeForms() throws {
        let runtime = try harlowe(":: Start\n[[Go to the cellar->Cellar]]\n[[Parlour<-Walk into the parlour]]\n[[Cellar]]\n[[Old style|Parlour]]\n\n:: Cellar\nDark.\n\n:: Parlour\nWarm.")
        let start = runtime.start()
        #expect(start.labels == ["Go to the cellar", "Walk into the parlour", "Cellar", "Old style"])
        #expect(start.links.map(\.action) == [.goto("Cellar"), .goto("Parlour"), .goto("Cellar"), .goto("Parlour")])
        #expect(start.text == "")  // lines of links only: the choices say them
        let cellar = try runtime.choose(0)
        #expect(cellar.text == "Dark.")
        #expect(cellar.isEnding)
    }

    @Test func aLinkInASentenceStaysInTheText() throws {
        #expect(try text(of: "You may [[leave->Other]] now.") == "You may <u>leave</u> now.")
    }

    @Test func styles() throws {
        #expect(try text(of: "''bold'' //italic// **strong** *em* ~~strike~~") ==
            "<b>bold</b> <i>italic</i> <b>strong</b> <i>em</i> <span class=\"dim\">strike</span>")
        #expect(try text(of: "#Title\n* one\n---") == "<b>Title</b>\n• one\n――――――――")
        #expect(try text(of: "a<br>b <!-- hidden --> `''verbatim''`") == "a<br>b  &apos;&apos;verbatim&apos;&apos;".replacingOccurrences(of: "&apos;", with: "'"))
    }

    @Test func aStyleAcrossLinesIsClosedAndOpenedAgain() throws {
        #expect(try text(of: "''one\ntwo''") == "<b>one</b>\n<b>two</b>")
    }

    @Test func collapsingWhitespace() throws {
        #expect(try text(of: "{\nA\n  (set: $x to 1)\n  B\n}") == "A B")
    }

    @Test func namedHooksAndHiddenHooks() throws {
        #expect(try text(of: "|door>[The door.] [Bare hook.] |secret)[Hidden.]") == "The door. Bare hook.")
        #expect(try text(of: "[Shown.]<tail| [Not.](shy|") == "Shown.")
    }

    @Test func picturesAndSoundsComeOutOfTheText() throws {
        let runtime = try harlowe(":: Start\n<img src=\"pictures/sea.png\" alt=\"the sea\">The sea.\n<audio src=\"sounds/waves.ogg\" autoplay></audio>")
        let moment = runtime.start()
        #expect(moment.lines == [HarloweLine(text: "The sea.", image: "pictures/sea.png", imageAlt: "the sea"), HarloweLine(text: "", sounds: ["sounds/waves.ogg"])])
    }

    /// An `<audio>` with several `<source>`s is one sound, the first Pajama may play (a web address and a format
    /// it does not decode are passed over; the story source falls back on the next when the file is missing),
    /// on one line or across lines, looping when the `<audio>` says `loop`; a `<source>` outside an `<audio>`
    /// is a sound of its own.
    @Test func anAudioWithSeveralSourcesIsOneSound() throws {
        let runtime = try harlowe("""
            :: Start
            Waves.<audio autoplay><source src="https://example.com/w.ogg"><source src="./sounds/w.m4a"><source src="./sounds/w.mp3" type="audio/mpeg"><source src="sounds/w.ogg"></audio>
            <audio loop>
              <source src="sounds/rain.ogg">
              <source src="sounds/rain.wav">
            </audio>Rain.
            <source src="sounds/bell.wav">Bell.
            """)
        let moment = runtime.start()
        #expect(moment.lines == [
            HarloweLine(text: "Waves.", sounds: ["sounds/w.mp3"]), HarloweLine(text: "Rain.", loop: .play("sounds/rain.ogg")),
            HarloweLine(text: "Bell.", sounds: ["sounds/bell.wav"]),
        ])
        let scan = TwineScan(try Twee.parse(":: Start\n<audio><source src=\"a.mp3\"><source src=\"a.ogg\"></audio><audio src=\"b.wav\">"))
        #expect(scan.passages[0].soundSources == [TwineScan.Sound(sources: ["a.mp3", "a.ogg"]), TwineScan.Sound(sources: ["b.wav"])])
        // Never closed: the sound is the text's last.
        #expect(try harlowe(":: Start\nOpen.<audio><source src=\"c.ogg\">").start().lines == [HarloweLine(text: "Open.", sounds: ["c.ogg"])])
    }

    @Test func controlCharactersNeverReachTheText() throws {
        #expect(try text(of: "a\u{1B}[31mb\u{07}") == "a[31mb")
    }

    /// Changers added with `+` before a hook are one changer (their sum), not text: `(align:"<==")+(box:"=XX=")[...]`
    /// showed "+The Price Of Absolution". Without a hook after them, `+` between macros stays text.
    @Test func changersAddedBeforeAHookAreOne() throws {
        let title = try text(of: "(align:\"<==\")+(box:\"=XX=\")[The Price Of Absolution]")
        #expect(!title.contains("+"))
        #expect(InlineMarkup.strip(title) == "The Price Of Absolution")
        let both = try text(of: "(text-colour: red) + (text-style: \"bold\")+(box: \"=X=\")[Hi]")
        #expect(both.contains("<b>") && both.contains("color") && InlineMarkup.strip(both) == "Hi")
        #expect(try text(of: "(print: 1) + (print: 2)") == "1 + 2")
    }

    /// A variable's name holds a letter (Harlowe's `validPropertyName`): runs of underscores are text.
    @Test func underscoresAloneAreNoTemporaryVariable() throws {
        #expect(try text(of: "  (_____)\n________--= Play =--") == "  (_____)\n________--= Play =--")
        #expect(try text(of: "(set: _x to 2)_x and $_ and _1") == "2 and $_ and _1")
    }

    /// An HTML tag written over several lines is one tag: none of its attributes leaks as text.
    @Test func aTagOverSeveralLinesIsOneTag() throws {
        let runtime = try harlowe(":: Start\n<div style=\"text-align: center;\">\n    <img src=\"img/q2.jpeg\" width=\"400\" \n    style=\"display: block; \n    margin: 0 auto;\n    height: auto;\">The garden.\n</div>")
        #expect(runtime.start().lines.map { InlineMarkup.strip($0.text).trimmingSpacesAndLines() }.filter { !$0.isEmpty } == ["The garden."])
        #expect(runtime.start().lines.compactMap(\.image) == ["img/q2.jpeg"])
    }

    /// HTML the author hid (`display:none`, `hidden`) shows nothing and offers no link; what is inside still runs.
    @Test func hiddenHTMLShowsNothingAndOffersNoLink() throws {
        let runtime = try harlowe("""
            :: Start
            <div id="payload" style="display:none">
              <span>(set: $score to 7)(print: $score) / [[Hidden->Other]]</span>
              <div>nested</div> still hidden
            </div>Shown: $score <span hidden>no</span>[[Go->Other]]
            <p style="color: red; display: none !important">gone</p>

            :: Other
            Other.
            """)
        let start = runtime.start()
        #expect(start.text == "Shown: 7 <u>Go</u>")
        #expect(start.labels == ["Go"])
    }

    /// A link to no passage is shown broken, as Harlowe shows it: its text, not a link (taking it would stop
    /// the story). A link's passage named by markup (`->$lastPage`) is the passage it names once rendered.
    @Test func aLinkToNoPassageIsTextAndAVariableNamesTheTarget() throws {
        let broken = try harlowe(":: Start\nThis is the beginning. [[Go forward->Chapter1]]\n(link-goto: \"Nowhere\", \"Missing\")")
        let start = broken.start()
        #expect(start.text == "This is the beginning. Go forward\nNowhere")
        #expect(start.isEnding)
        let back = try harlowe(":: Start\n(set: $lastPage to \"Cellar\")[[Back->$lastPage]] [[Lost->$nothing]]\n\n:: Cellar\nDark.")
        let moment = back.start()
        #expect(moment.labels == ["Back"])
        #expect(moment.links.map(\.action) == [.goto("Cellar")])
        #expect(try back.choose(0).text == "Dark.")
    }

    /// Harlowe 3.3's unclosed hook, `[=` or `[==`: a hook holding the rest of the passage, or of the hook around
    /// it; named and hidden like any hook.
    @Test func anUnclosedHookHoldsTheRestOfThePassage() throws {
        #expect(try text(of: "Before.\n(if: true)[==\nThe rest.") == "Before.\nThe rest.")
        #expect(try text(of: "Before.\n(if: false)[==\nThe rest.\n[[Other]]") == "Before.")
        #expect(try text(of: "A [(if: false)[=inner] B") == "A  B")
        #expect(try text(of: "A {(if: false)[=inner} B") == "A  B")  // it ends where the collapse does
        #expect(try text(of: "Shown.\n|secret)[=\nHidden.") == "Shown.")
        let runtime = try harlowe(":: Start\nDoor.\n(link: \"Open\")[=\nThe room. [[Other]]\n\n:: Other\nOut.")
        let start = runtime.start()
        #expect(start.labels == ["Open"])
        let open = try runtime.choose(0)
        #expect(open.text == "The room. <u>Other</u>")
        #expect(open.labels == ["Other"])
    }

    /// A variable holding a changer, written before a hook, changes that hook as the macro would
    /// (`$robotText[Good golly!]`); another value before a hook is printed, the hook shown as it is.
    @Test func aVariableHoldingAChangerChangesTheHookAfterIt() throws {
        let styled = try text(of: "(set: $loud to (text-style: \"bold\"), _soft to (text-style: \"italic\"))$loud[Good golly!] _soft[Hush.]")
        #expect(styled == "<b>Good golly!</b> <i>Hush.</i>")
        #expect(try text(of: "(set: $shy to (if: false))$shy[Hidden.]Shown.") == "Shown.")
        #expect(try text(of: "(set: $name to \"Ann\")$name[s] hat") == "Anns hat")
        #expect(try text(of: "(set: $later to (if: true))$later[==\nThe rest.") == "The rest.")
    }

    @Test func unclosedMarkupIsText() throws {
        #expect(try text(of: "a (b c) [[no end") == "a (b c) [[no end")
        #expect(try text(of: "costs $5 and a_b") == "costs $5 and a_b")
    }
}
