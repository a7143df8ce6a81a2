import PajamaFormats
import PajamaStoryTest
import PajamaSugarCube
import PajamaTestSupport
import PajamaTwine
import Testing

/// `pajama test`'s coverage of a SugarCube story: its passages (docs/testing.md, "What the report says"),
/// those the runtime entered (a link, a `<<goto>>`), not the special ones nor code, styles and widgets.
@Suite struct SugarCubeCoverageTests {
    static let twee = """
        :: StoryData
        {"ifid": "00000000-0000-4000-8000-000000000040", "format": "SugarCube", "format-version": "2.37.3", "start": "Gate"}

        :: StoryInit
        <<set $keys to 0>>

        :: StoryCaption
        Keys: $keys

        :: PassageHeader
        ~

        :: Story JavaScript [script]
        setup.door = "oak";

        :: Style [stylesheet]
        body { color: red; }

        :: Widgets [widget]
        <<widget "knock">>Knock.<</widget>>

        :: Gate
        An <<print setup.door>> gate. <<include "Sign">>
        [[In|Hall]] [[Round|Garden]]

        :: Hall
        <<goto "Kitchen">>

        :: Kitchen
        <<knock>> Bread on the table.

        :: Garden
        Roses.

        :: Sign
        "Keep out."

        :: Attic
        Nobody comes up here.
        """

    @Test func theCoverageIsThePassagesEnteredAndNamesTheOthers() async throws {
        let dir = try TemporaryDirectory(prefix: "pajama-sugarcube-coverage")
        defer { dir.remove() }
        _ = try dir.write("gate.twee", Self.twee)
        let path = dir.path + "/gate.twee"
        let report = try await StoryTestRunner(story: path, options: StoryTestOptions(runs: 20, jobs: 2)) { await StorySources.open(path, seed: 0) }.run()
        // Hall is entered on the way to Kitchen (its <<goto>>); Sign is only included, Attic never linked to.
        #expect(report.coverage == [StoryTestReport.Coverage(kind: "passages", reached: 4, total: 6, unreached: ["Sign", "Attic"])],
                "\(report.summary)")
        #expect(Set(report.endings.map(\.id)) == ["Knock. Bread on the table.", "Roses."], "\(report.summary)")
        #expect(report.summary.contains("never reached: Sign, Attic"), "\(report.summary)")
    }

    /// The special passages and the tagged ones are not parts; the order is the story's.
    @Test func theReadablePassagesLeaveOutTheSpecialOnes() throws {
        let story = try Twee.parse(Self.twee)
        #expect(SugarCubeRuntime(story: story, seed: 0).readablePassages == ["Gate", "Hall", "Kitchen", "Garden", "Sign", "Attic"])
    }
}
