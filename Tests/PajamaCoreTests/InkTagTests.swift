import PajamaCore
import PajamaInkBridge
import Testing

/// Inky's web-export tags and Pajama's own, as `InkTag` reads them (docs/ink.md, "Tags").
@Suite struct InkTagTests {
    @Test func inkysTagsAreReadWhateverTheirCase() {
        #expect(InkTag("IMAGE: images/a.png") == .image("images/a.png"))
        #expect(InkTag(" Image :images/a.png ") == .image("images/a.png"))
        #expect(InkTag("AUDIO: sounds/bell.ogg") == .sound("sounds/bell.ogg"))
        #expect(InkTag("AUDIOLOOP: sounds/rain.ogg") == .loop("sounds/rain.ogg"))
        #expect(InkTag("audioloop: none") == .loop(nil))
        #expect(InkTag("AUDIOLOOP: NONE") == .loop(nil))
        #expect(InkTag("BACKGROUND: images/sky.png") == .background("images/sky.png"))
        #expect(InkTag("background: None") == .background(nil))
        #expect(InkTag("CLASS: dim") == .styleClass("dim"))
        #expect(InkTag("CLEAR") == .page)
        #expect(InkTag("clear") == .page)
        #expect(InkTag("RESTART") == .restart)
        #expect(InkTag("title: A <b>Web</b> Story") == .title("A <b>Web</b> Story"))
        #expect(InkTag("AUTHOR: Someone") == .author("Someone"))
        #expect(InkTag("theme: Dark") == .theme("dark"))
        #expect(InkTag("theme: light") == .theme("light"))
    }

    @Test func pajamasOwnTagsKeepTheirMeaning() {
        #expect(InkTag("image: images/a.png") == .image("images/a.png"))
        #expect(InkTag("sound: s.wav") == .sound("s.wav"))
        #expect(InkTag("tap_sound: t.wav") == .tapSound("t.wav"))
        #expect(InkTag("critical") == .critical)
        #expect(InkTag("page") == .page)
        #expect(InkTag("mood: grey") == .other("mood: grey"))
        // A tag that needs a value and has none is not that tag.
        #expect(InkTag("CLEAR: x") == .other("CLEAR: x"))
        #expect(InkTag("RESTART: now") == .other("RESTART: now"))
        #expect(InkTag("CLASS") == .other("CLASS"))
    }

    @Test func theAssetsTagsName() {
        #expect(InkTag("IMAGE: a.png").asset! == ("image", "a.png"))
        #expect(InkTag("AUDIO: a.ogg").asset! == ("sound", "a.ogg"))
        #expect(InkTag("AUDIOLOOP: a.ogg").asset! == ("audioloop", "a.ogg"))
        #expect(InkTag("BACKGROUND: b.png").asset! == ("background", "b.png"))
        #expect(InkTag("AUDIOLOOP: none").asset == nil)
        #expect(InkTag("BACKGROUND: none").asset == nil)
        #expect(InkTag("BACKGROUND: b.png").namesPicture)
        #expect(!InkTag("AUDIOLOOP: a.ogg").namesPicture)
        // An empty path is still the tag, so the reader says what is wrong with it.
        #expect(InkTag("IMAGE:") == .image(""))
    }
}

/// The HTML of web ink's text (docs/ink.md, "Markup").
@Suite struct InkMarkupTests {
    static func bold(_ from: Int, _ to: Int) -> TextSpan { TextSpan(from: from, to: to, attributes: .bold) }

    @Test func plainTextIsTakenAsItIs() {
        let parsed = InkMarkup.parse("Nothing to see, 3 > 2.")
        #expect(parsed.text == "Nothing to see, 3 > 2.")
        #expect(parsed.spans.isEmpty && parsed.breaks.isEmpty && parsed.unknown.isEmpty)
        #expect(parsed.marks(line: 0) == nil)
    }

    @Test func stylesBecomeSpansOfThePlainText() {
        let parsed = InkMarkup.parse("The <b>storm</b> and <i>the</i> <u>sea</u>.")
        #expect(parsed.text == "The storm and the sea.")
        #expect(parsed.spans == [Self.bold(4, 9), TextSpan(from: 14, to: 17, attributes: .italic), TextSpan(from: 18, to: 21, attributes: .underline)])
        #expect(InkMarkup.parse("<strong>A</strong><em>B</em>").spans == [Self.bold(0, 1), TextSpan(from: 1, to: 2, attributes: .italic)])
        // Nested: both at once where they overlap; case does not matter.
        let nested = InkMarkup.parse("<B>bold <I>both</I></B> none")
        #expect(nested.text == "bold both none")
        #expect(nested.spans == [Self.bold(0, 5), TextSpan(from: 5, to: 9, attributes: [.bold, .italic])])
    }

    @Test func spansTakeTheirClassAndLinksShowTheirText() {
        let span = InkMarkup.parse(#"A <span class="dim">quiet</span> <span class='nothing-known'>word</span>"#)
        #expect(span.text == "A quiet word")
        #expect(span.spans == [TextSpan(from: 2, to: 7, attributes: .dim)])
        let link = InkMarkup.parse(#"See <a href="https://example.com/?a=1&b=2">the site</a>."#)
        #expect(link.text == "See the site.")
        #expect(link.spans == [TextSpan(from: 4, to: 12, attributes: .underline)])
        #expect(link.unknown.isEmpty)
    }

    @Test func breaksAreSpacesThatBreakTheLine() {
        let parsed = InkMarkup.parse("One<br>two<br/>three<BR />four")
        #expect(parsed.text == "One two three four")
        #expect(parsed.breaks == [3, 7, 13])
        let marks = LineMarks(line: 0, spans: parsed.spans, breaks: parsed.breaks)
        #expect(marks.runs(of: parsed.text).map { $0.map(\.text).joined() } == ["One", "two", "three", "four"])
        // A break at either end breaks nothing.
        #expect(InkMarkup.parse("<br>Alone<br>").breaks.isEmpty)
    }

    @Test func entitiesAreDecoded() {
        #expect(InkMarkup.parse("Tom &amp; Jerry &lt;3 &gt; &quot;hi&quot; &#39;x&#39; &apos;y&apos;").text == "Tom & Jerry <3 > \"hi\" 'x' 'y'")
        #expect(InkMarkup.parse("a&nbsp;b").text == "a\u{A0}b")
        #expect(InkMarkup.parse("&#9731; &#x2603;").text == "☃ ☃")
        // Not an entity: left as it is.
        #expect(InkMarkup.parse("fish & chips &unknown; &#xZZ;").text == "fish & chips &unknown; &#xZZ;")
    }

    @Test func noTagIsEverKeptAsText() {
        let parsed = InkMarkup.parse("<blink>Now</blink> <marquee>here</marquee><img src='x.png'/>")
        #expect(parsed.text == "Now here")
        #expect(parsed.unknown == ["blink", "marquee", "img"])
        // A `<` that starts no tag is text.
        #expect(InkMarkup.parse("3 < 5 and <3 and a<b").text == "3 < 5 and <3 and a<b")
        #expect(InkMarkup.parse("<b unclosed").text == "<b unclosed")
        // A closing tag with nothing open, and an open one never closed, are harmless.
        #expect(InkMarkup.parse("</b>x<i>y").text == "xy")
        // An escape written as an entity is decoded here and replaced before it is drawn (UntrustedText).
        #expect(InkMarkup.parse("&#27;[31m").text == "\u{1B}[31m")
    }

    @Test func classesMapToStylesOrToNothing() {
        #expect(InkMarkup.attributes(forClass: "bold") == .bold)
        #expect(InkMarkup.attributes(forClass: "Italic DIM") == [.italic, .dim])
        #expect(InkMarkup.attributes(forClass: "underline") == .underline)
        #expect(InkMarkup.attributes(forClass: "fancy-title") == nil)
    }
}
