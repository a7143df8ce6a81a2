import PajamaModel
import PajamaPaging
import Testing

/// The HTML of web ink's text (docs/ink.md, "Markup").
@Suite struct PageMarkupTests {
    static func bold(_ from: Int, _ to: Int) -> TextSpan { TextSpan(from: from, to: to, attributes: .bold) }

    @Test func plainTextIsTakenAsItIs() {
        let parsed = PageMarkup.parse("Nothing to see, 3 > 2.")
        #expect(parsed.text == "Nothing to see, 3 > 2.")
        #expect(parsed.spans.isEmpty && parsed.breaks.isEmpty && parsed.unknown.isEmpty)
        #expect(parsed.marks(line: 0) == nil)
    }

    @Test func stylesBecomeSpansOfThePlainText() {
        let parsed = PageMarkup.parse("The <b>storm</b> and <i>the</i> <u>sea</u>.")
        #expect(parsed.text == "The storm and the sea.")
        #expect(parsed.spans == [Self.bold(4, 9), TextSpan(from: 14, to: 17, attributes: .italic), TextSpan(from: 18, to: 21, attributes: .underline)])
        #expect(PageMarkup.parse("<strong>A</strong><em>B</em>").spans == [Self.bold(0, 1), TextSpan(from: 1, to: 2, attributes: .italic)])
        // Nested: both at once where they overlap; case does not matter.
        let nested = PageMarkup.parse("<B>bold <I>both</I></B> none")
        #expect(nested.text == "bold both none")
        #expect(nested.spans == [Self.bold(0, 5), TextSpan(from: 5, to: 9, attributes: [.bold, .italic])])
    }

    @Test func spansTakeTheirClassAndLinksShowTheirText() {
        let span = PageMarkup.parse(#"A <span class="dim">quiet</span> <span class='nothing-known'>word</span>"#)
        #expect(span.text == "A quiet word")
        #expect(span.spans == [TextSpan(from: 2, to: 7, attributes: .dim)])
        let link = PageMarkup.parse(#"See <a href="https://example.com/?a=1&b=2">the site</a>."#)
        #expect(link.text == "See the site.")
        #expect(link.spans == [TextSpan(from: 4, to: 12, attributes: .underline)])
        #expect(link.unknown.isEmpty)
    }

    @Test func breaksAreSpacesThatBreakTheLine() {
        let parsed = PageMarkup.parse("One<br>two<br/>three<BR />four")
        #expect(parsed.text == "One two three four")
        #expect(parsed.breaks == [3, 7, 13])
        let marks = LineMarks(line: 0, spans: parsed.spans, breaks: parsed.breaks)
        #expect(marks.runs(of: parsed.text).map { $0.map(\.text).joined() } == ["One", "two", "three", "four"])
        // A break at either end breaks nothing.
        #expect(PageMarkup.parse("<br>Alone<br>").breaks.isEmpty)
    }

    @Test func entitiesAreDecoded() {
        #expect(PageMarkup.parse("Tom &amp; Jerry &lt;3 &gt; &quot;hi&quot; &#39;x&#39; &apos;y&apos;").text == "Tom & Jerry <3 > \"hi\" 'x' 'y'")
        #expect(PageMarkup.parse("a&nbsp;b").text == "a\u{A0}b")
        #expect(PageMarkup.parse("&#9731; &#x2603;").text == "☃ ☃")
        // Not an entity: left as it is.
        #expect(PageMarkup.parse("fish & chips &unknown; &#xZZ;").text == "fish & chips &unknown; &#xZZ;")
    }

    @Test func noTagIsEverKeptAsText() {
        let parsed = PageMarkup.parse("<blink>Now</blink> <marquee>here</marquee><img src='x.png'/>")
        #expect(parsed.text == "Now here")
        #expect(parsed.unknown == ["blink", "marquee", "img"])
        // A `<` that starts no tag is text.
        #expect(PageMarkup.parse("3 < 5 and <3 and a<b").text == "3 < 5 and <3 and a<b")
        #expect(PageMarkup.parse("<b unclosed").text == "<b unclosed")
        // A closing tag with nothing open, and an open one never closed, are harmless.
        #expect(PageMarkup.parse("</b>x<i>y").text == "xy")
        // An escape written as an entity is decoded here and replaced before it is drawn (UntrustedText).
        #expect(PageMarkup.parse("&#27;[31m").text == "\u{1B}[31m")
    }

    @Test func classesMapToStylesOrToNothing() {
        #expect(PageMarkup.attributes(forClass: "bold") == .bold)
        #expect(PageMarkup.attributes(forClass: "Italic DIM") == [.italic, .dim])
        #expect(PageMarkup.attributes(forClass: "underline") == .underline)
        #expect(PageMarkup.attributes(forClass: "fancy-title") == nil)
    }
}
