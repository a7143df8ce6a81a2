import PajamaModel

/// The small story the progress target resumes: four beats (a choice, two branches, an ending) with
/// line-by-line text, as JSON files decoded by the real decoder.
enum FuzzStory {
    static let id = "fuzz-story"

    static let files: [String: [UInt8]] = [
        "story.json": #"{"format": 1, "id": "fuzz-story", "title": "Fuzz", "version": "1", "startBeatId": "start", "presentation": {"lineByLine": true}, "beats": ["start", "left", "right", "end"]}"#,
        "beats/start.json": #"{"id": "start", "pages": [{"id": "cover", "type": "title", "title": "Fuzz"}, {"id": "road", "type": "text", "lines": ["one", "two", "three"]}, {"id": "fork", "type": "choice", "prompt": "Which way?", "choices": [{"text": "Left", "targetBeatId": "left"}, {"text": "Right", "targetBeatId": "right"}]}]}"#,
        "beats/left.json": #"{"id": "left", "pages": [{"id": "p", "type": "text", "lines": ["left", "still left"]}], "nextBeatId": "end"}"#,
        "beats/right.json": #"{"id": "right", "pages": [{"id": "p", "type": "text", "lines": ["right"]}], "nextBeatId": "end"}"#,
        "beats/end.json": #"{"id": "end", "pages": [{"id": "p", "type": "text", "lines": ["the end"]}, {"id": "q", "type": "text", "lines": ["really"]}]}"#,
    ].mapValues { Array($0.utf8) }

    static let manifest: StoryManifest = try! StoryDecoder.decodeManifest(files["story.json"]!)
}
