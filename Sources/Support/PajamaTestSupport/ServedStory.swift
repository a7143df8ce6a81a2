import Foundation

/// A small story on disk for the real web server: start (a picture, a choice) -> left | right -> end.
public struct ServedStory {
    public let dir: TemporaryDirectory

    public init(version: String = "1") throws {
        dir = try TemporaryDirectory(prefix: "pajama-http-story")
        try write(version: version)
        try dir.write("beats/start.json", """
        {"id":"start","pages":[{"id":"p","type":"text","lines":["once"],"imageUrl":"assets/start.txt"},
          {"id":"q","type":"choice","choices":[{"text":"L","targetBeatId":"left"},{"text":"R","targetBeatId":"right"}]}]}
        """)
        try dir.write("beats/left.json", beatJSON("left", next: "end"))
        try dir.write("beats/right.json", beatJSON("right", next: "end"))
        try dir.write("beats/end.json", beatJSON("end"))
        try dir.write("assets/start.txt", "a picture")
        try dir.write("assets/big.bin", Data(repeating: 7, count: 64 * 1024))
    }

    /// Rewrites story.json with another version.
    public func write(version: String) throws {
        try dir.write("story.json", """
        {"format":1,"id":"served","title":"Served","version":"\(version)","startBeatId":"start",
         "beats":["start","left","right","end"],"assets":{"criticality":{"assets/start.txt":"critical"}}}
        """)
    }

    public var url: URL { dir.url }
}

/// A one-page text beat's JSON ("hello"), leading to `next` when given.
public func beatJSON(_ id: String, next: String? = nil) -> String {
    let nextPart = next.map { ",\"nextBeatId\":\"\($0)\"" } ?? ""
    return "{\"id\":\"\(id)\",\"pages\":[{\"id\":\"p\",\"type\":\"text\",\"lines\":[\"hello\"]}]\(nextPart)}"
}
