import Foundation
import PajamaCore

/// Opens a story argument: a URL for `http://`/`https://` (the package's base URL, or its story.json),
/// else a folder.
public enum StorySources {
    public static func open(_ argument: String) -> any StorySource {
        let lower = argument.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://"), let url = URL(string: argument) {
            return HTTPStorySource(baseURL: url)
        }
        return FolderStorySource(folder: argument)
    }
}
