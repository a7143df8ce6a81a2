import PajamaSugarCube
import PajamaTwine

/// A runtime for a story written as Twee in a test.
func sugarCube(_ twee: String, seed: Int = 1) throws -> SugarCubeRuntime {
    let story = try Twee.parse(":: StoryData\n{\"ifid\": \"00000000-0000-4000-8000-000000000000\", \"format\": \"SugarCube\", \"start\": \"Start\"}\n\n" + twee)
    return SugarCubeRuntime(story: story, seed: seed)
}

extension SugarCubeMoment {
    /// The lines' text, tags kept.
    var text: [String] { lines.map(\.text) }
    var labels: [String] { links.map(\.label) }
}
