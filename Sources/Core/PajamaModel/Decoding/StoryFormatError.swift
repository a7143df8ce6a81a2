/// A problem in a story package, with where it is: the file, the beat, the page and the JSON path.
///
/// Its description reads like `beats/forest.json: beat "forest", page "f2" (pages[1]): at
/// pages[1].tools[0].args.sound_url: a '..' segment is not allowed`.
public struct StoryFormatError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file inside the package (`story.json`, `beats/forest.json`).
    public var file: String
    public var beatId: String?
    public var pageId: String?
    /// The JSON path of the bad value (`pages[1].tools[0].args.sound_url`), empty for the whole file.
    public var path: String
    public var message: String

    public init(file: String, beatId: String? = nil, pageId: String? = nil, path: String = "", message: String) {
        self.file = file
        self.beatId = beatId
        self.pageId = pageId
        self.path = path
        self.message = message
    }

    /// "beat "x", page "y"" or "" when neither is known.
    public var locationDescription: String {
        var parts: [String] = []
        if let beatId { parts.append("beat \"\(beatId)\"") }
        if let pageId { parts.append("page \"\(pageId)\"") }
        return parts.joined(separator: ", ")
    }

    public var description: String {
        var text = file
        let location = locationDescription
        if !location.isEmpty { text += ": " + location }
        if !path.isEmpty { text += ": at " + path }
        return text + ": " + message
    }
}
