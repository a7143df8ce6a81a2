import PajamaStorage
import PajamaFormats
import PajamaTerminal
import PajamaTestSupport
import Testing

/// The library names each story's format as the format calls itself (`StoryFormat.displayName`).
@Suite struct LibraryFormatNameTests {
    @Test func eachFormatIsCalledByItsOwnName() throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        _ = try temp.write("shelf/shore/scenes/startup.txt", "*title The Shore\nThe tide turns.\n*ending\n")
        _ = try temp.write("shelf/mill/mill.twee", """
            :: StoryTitle
            The Mill

            :: StoryData
            {"ifid": "6A1B7E52-0F0C-4B07-9A0C-3B1F9D1E5C31", "format": "Harlowe", "format-version": "3.3.9", "start": "Start"}

            :: Start
            The mill creaks.
            """)
        _ = try temp.write("shelf/well/well.twee", """
            :: StoryTitle
            The Well

            :: StoryData
            {"ifid": "0B9E0C55-3C2A-4E4B-8E51-2D6C1F8A7B10", "format": "SugarCube", "format-version": "2.36.1", "start": "Start"}

            :: Start
            The well is deep.
            """)
        let progress = ProgressStore(folder: temp.url.appendingPathComponent("progress"))
        let entries = LibraryEntry.scan(temp.url.appendingPathComponent("shelf").path, progress: progress, formats: .all)
        #expect(entries.first { $0.title == "The Shore" }?.format == "ChoiceScript")
        #expect(entries.first { $0.title == "The Mill" }?.format == "Twine")
        #expect(entries.first { $0.title == "The Well" }?.format == "SugarCube")
    }
}
