import Foundation
import PajamaCore

/// Opens a story argument: a URL for `http://`/`https://` (the package's base URL, or its story.json),
/// else a folder. A compiled ink story (`*.ink.json`: the file, its URL, or a folder holding exactly one and
/// no story.json) opens as an `InkStorySource` over the folder or URL it is in.
public enum StorySources {
    /// `inkSeed` fixes an ink story's random seed (random otherwise).
    public static func open(_ argument: String, inkSeed: Int? = nil) -> any StorySource {
        let lower = argument.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://"), let url = URL(string: argument) {
            if InkStorySource.isInkFile(url.lastPathComponent) {
                return InkStorySource(base: HTTPStorySource(baseURL: url.deletingLastPathComponent()), file: url.lastPathComponent, seed: inkSeed)
            }
            return HTTPStorySource(baseURL: url)
        }
        if let ink = InkStorySource.local(argument, seed: inkSeed) { return ink }
        return FolderStorySource(folder: argument)
    }
}
