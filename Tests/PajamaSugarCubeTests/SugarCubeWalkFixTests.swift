import PajamaSugarCube
import PajamaTwine
import Testing

/// The differences the browser walks found (docs/sugarcube.md, "Agreement with SugarCube"), each against what
/// SugarCube 2 shows in Chromium for the same source.
@Suite struct SugarCubeWalkFixTests {
    /// 666feiyu666--Fox-and-Crow: a `<dialog>` (not open) in PassageHeader printed "Story Log THE JOURNEY SO
    /// FAR ..." on every page; a browser shows none of a hidden element, and offers none of its links.
    @Test func hiddenHTMLShowsNothingAndOffersNothing() throws {
        let runtime = try sugarCube("""
        :: Start
        Before<dialog class="log"><div><p>Story Log</p></div>[[Secret]]</dialog> after.
        <div style="display: none"><<set $ran to true>><div>inner</div>[[Secret]]</div><span hidden>quiet</span>
        <dialog open>Shown</dialog> <<print $ran>>
        [[Next]]

        :: Secret
        no

        :: Next
        yes
        """)
        let moment = runtime.start()
        #expect(moment.error == nil)
        #expect(moment.text.joined(separator: "\\n").contains("Story Log") == false)
        #expect(moment.text.joined(separator: "\\n").contains("inner") == false)
        #expect(moment.text.joined(separator: "\\n").contains("quiet") == false)
        #expect(moment.text.joined(separator: "\\n").contains("Shown"))
        #expect(moment.text.joined(separator: "\\n").contains("true"))
        #expect(moment.labels == ["Next"])
    }
}
