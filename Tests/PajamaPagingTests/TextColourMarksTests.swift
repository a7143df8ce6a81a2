import Foundation
import PajamaModel
import PajamaPaging
import Testing

/// A story's own text colours and line alignment (docs/story-format.md, `marks`): colours read as stories
/// write them, kept on the spans and runs, written to and read from a beat's JSON, and bad values refused
/// naming the file, beat, page and field; ink's HTML gives the same marks.
@Suite struct TextColourMarksTests {
    @Test func coloursAreReadAsStoriesWriteThem() {
        #expect(TextColor.parse("#cc3300") == 0xCC3300)
        #expect(TextColor.parse("#A4E") == 0xAA44EE)
        #expect(TextColor.parse(" Red ") == 0xFF0000)
        #expect(TextColor.parse("rgb(10, 20, 30)") == 0x0A141E)
        #expect(TextColor.hex(0x0A0B0C) == "#0a0b0c")
    }

    /// A partly transparent colour keeps its opacity (the top byte holds 255 minus it); fully transparent is
    /// no colour; `#rrggbbaa` is how a beat's JSON writes it.
    @Test func transparencyIsKeptAndWrittenAsEightDigits() {
        #expect(TextColor.parse("rgba(255,0,0,0.5)") == 0x7FFF_0000)
        #expect(TextColor.parse("rgba(255, 0, 0, 50%)") == 0x7FFF_0000)
        #expect(TextColor.parse("rgba(255,0,0,1)") == 0xFF0000)
        #expect(TextColor.parse("#ff000080") == 0x7FFF_0000)
        #expect(TextColor.parse("#f008") == 0x77FF_0000)
        #expect(TextColor.alpha(0x7FFF_0000) == 0x80 && TextColor.alpha(0xFF0000) == 255)
        #expect(TextColor.hex(0x7FFF_0000) == "#ff000080" && TextColor.hex(0xF0FF_0000) == "#ff00000f")
        for bad in ["#12345", "#ggg", "#", "transparent", "inherit", "rgb(300,0,0)", "", "reddish", "rgba(255,0,0,0)", "#ff000000",
                    "rgba(255,0,0,1.5)", "rgba(1,2,3,4,5)"] {
            #expect(TextColor.parse(bad) == nil, "\(bad)")
        }
    }

    @Test func runsCarryTheColourAndTheInnermostWins() {
        let marks = LineMarks(line: 0, spans: [TextSpan(from: 0, to: 9, attributes: [], color: 0x112233),
                                               TextSpan(from: 4, to: 6, attributes: .bold, color: 0xAABBCC)])
        let runs = marks.runs(of: "The red sea")
        #expect(runs.count == 1)
        #expect(runs[0].map(\.text) == ["The ", "re", "d s", "ea"])
        #expect(runs[0].map(\.look) == [TextLook(color: 0x112233), TextLook(attributes: .bold, color: 0xAABBCC),
                                         TextLook(color: 0x112233), TextLook()])
        #expect(!LineMarks(line: 0, alignment: .center).isEmpty)
    }

    static func beatJSON(spans: String = "[]", align: String = "") -> [UInt8] {
        Array(#"{"id": "a", "pages": [{"id": "p1", "type": "text", "lines": ["The red sea"], "marks": [{"line": 0, "spans": \#(spans)\#(align)}]}]}"#.utf8)
    }

    @Test func aBeatsColoursAndAlignmentRoundTrip() throws {
        let beat = try StoryDecoder.decodeBeat(Self.beatJSON(spans: ##"[{"from": 4, "to": 7, "style": ["bold"], "color": "#E61919"}]"##,
                                                             align: #", "align": "center""#), file: "beats/a.json")
        let marks = try #require(beat.pages[0].marks.first)
        #expect(marks.spans == [TextSpan(from: 4, to: 7, attributes: .bold, color: 0xE61919)])
        #expect(marks.alignment == .center)
        let json = String(decoding: StoryEncoder.encode(beat), as: UTF8.self)
        #expect(json.contains("\"#e61919\"") && json.contains("\"center\""))
        #expect(try StoryDecoder.decodeBeat(StoryEncoder.encode(beat), file: "beats/a.json") == beat)
        let faint = try StoryDecoder.decodeBeat(Self.beatJSON(spans: ##"[{"from": 0, "to": 3, "style": [], "color": "#e6191980"}]"##), file: "beats/a.json")
        #expect(faint.pages[0].marks[0].spans[0].color == 0x7FE6_1919)
        #expect(String(decoding: StoryEncoder.encode(faint), as: UTF8.self).contains("\"#e6191980\""))
        // Old files (no colour, no alignment) read as before.
        let plain = try StoryDecoder.decodeBeat(Self.beatJSON(spans: #"[{"from": 0, "to": 3, "style": ["italic"]}]"#), file: "beats/a.json")
        #expect(plain.pages[0].marks == [LineMarks(line: 0, spans: [TextSpan(from: 0, to: 3, attributes: .italic)])])
    }

    @Test func badColoursAndAlignmentsNameTheFileBeatPageAndField() {
        let colour = StoryFormatError(file: "beats/a.json", beatId: "a", pageId: "p1", path: "pages[0].marks[0].spans[0].color",
                                      message: "\"red\" is not a colour (expected #rrggbb, #rgb or #rrggbbaa, not fully transparent)")
        #expect(throws: colour) {
            try StoryDecoder.decodeBeat(Self.beatJSON(spans: #"[{"from": 0, "to": 3, "style": [], "color": "red"}]"#), file: "beats/a.json")
        }
        let align = StoryFormatError(file: "beats/a.json", beatId: "a", pageId: "p1", path: "pages[0].marks[0].align",
                                     message: "\"middle\" is not an alignment (expected left, center or right)")
        #expect(throws: align) { try StoryDecoder.decodeBeat(Self.beatJSON(align: #", "align": "middle""#), file: "beats/a.json") }
        // A made beat with a colour no file can hold (fully transparent) is refused the same way.
        let made = Beat(id: "a", pages: [Page(id: "p1", kind: .text(lines: ["x"]),
                                              marks: [LineMarks(line: 0, spans: [TextSpan(from: 0, to: 1, attributes: [], color: 0xFF00_0001)])])])
        #expect(throws: StoryFormatError(file: "beats/a.json", beatId: "a", pageId: "p1", path: "pages[0].marks[0].spans[0].color",
                                         message: "\"#00000100\" is not a colour (fully transparent: leave the colour out)")) {
            try StoryDecoder.check(made, file: "beats/a.json")
        }
    }

    @Test func inksHTMLGivesColoursAndAlignment() {
        let span = PageMarkup.parse(##"The <span style="color: #c30; font-weight: bold">red</span> <font color="navy">sea</font>"##)
        #expect(span.text == "The red sea")
        #expect(span.spans == [TextSpan(from: 4, to: 7, attributes: [], color: 0xCC3300), TextSpan(from: 8, to: 11, attributes: [], color: 0x000080)])
        #expect(span.unknown.isEmpty)
        let nested = PageMarkup.parse(#"<b><span style="color:lime">Go</span></b>"#)
        #expect(nested.spans == [TextSpan(from: 0, to: 2, attributes: .bold, color: 0x00FF00)])
        #expect(PageMarkup.parse(#"<p align="right">Signed</p>"#).marks(line: 0) == LineMarks(line: 0, alignment: .right))
        #expect(PageMarkup.parse(#"<div style="text-align: center">Title</div>"#).alignment == .center)
        #expect(PageMarkup.parse("<center>Title</center>").alignment == .center)
        #expect(PageMarkup.parse(#"<p style="text-align: justify">Long</p>"#).alignment == .left)
        #expect(PageMarkup.parse("<p>Plain</p>").marks(line: 0) == nil)
        // A colour Pajama cannot read is no colour.
        #expect(PageMarkup.parse(#"<span style="color: var(--x)">a</span>"#).spans.isEmpty)
    }
}
