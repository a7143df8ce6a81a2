@testable import PajamaModel
import Testing

@Suite struct StoryDecoderTests {
    private func beat(_ json: String, file: String = "beats/forest.json", id: String? = "forest") throws(StoryFormatError) -> Beat {
        try StoryDecoder.decodeBeat(Array(json.utf8), file: file, expectedId: id)
    }

    @Test func decodesTheFormatExample() throws {
        let b = try beat("""
        { "id": "forest", "pages": [
          { "id": "f1", "type": "title", "title": "Into the Woods", "subtitle": "Chapter two", "imageUrl": "assets/woods.png" },
          { "id": "f2", "type": "text", "lines": ["The path was dark.", "Somewhere, a wolf howled."],
            "tools": [
              { "name": "sound_effect", "args": { "sound_url": "assets/wolf_howl.ogg", "trigger": "page_enter" } },
              { "name": "sound_effect", "args": { "sound_url": "assets/twig_snap.wav", "trigger": "tap" } } ] },
          { "id": "f3", "type": "choice", "prompt": "Which path?", "imageUrl": "assets/split.png",
            "choices": [ { "text": "Left", "targetBeatId": "left_path", "sound_url": "assets/footsteps.wav" },
                         { "text": "Right", "targetBeatId": "right_path" } ] } ],
          "nextBeatId": "grandmother" }
        """)
        #expect(b.pages.count == 3)
        #expect(b.pages[1].pageEnterSounds.map(\.value) == ["assets/wolf_howl.ogg"])
        #expect(b.pages[1].tapSounds.map(\.value) == ["assets/twig_snap.wav"])
        #expect(b.pages[2].choices.map(\.targetBeatId) == ["left_path", "right_path"])
        #expect(b.successorBeatIds == ["grandmother", "left_path", "right_path"])
        let roles = b.assetReferences.map { $0.role.defaultCriticality }
        #expect(roles == [.important, .critical, .important, .critical, .important])
    }

    @Test func errorsNameFileBeatPageAndPath() {
        #expect(throws: StoryFormatError(
            file: "beats/forest.json", beatId: "forest", pageId: "f2", path: "pages[0].tools[0].args.sound_url",
            message: "invalid asset path \"../x.ogg\": a '..' or '.' segment is not allowed (nothing outside the story folder is read)")
        ) {
            try beat("""
            {"id":"forest","pages":[{"id":"f2","type":"text","lines":["a"],
             "tools":[{"name":"sound_effect","args":{"sound_url":"../x.ogg","trigger":"tap"}}]}]}
            """)
        }
    }

    @Test func syntaxErrorsGiveLineAndColumn() {
        do {
            _ = try beat("{\n  \"id\": \"forest\",\n  \"pages\": [,]\n}")
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "beats/forest.json: beat \"forest\": not valid JSON: line 3, column 13: unexpected character ','")
        }
    }
}
