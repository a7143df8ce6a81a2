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
        if let (folder, file) = inkFile(argument) {
            return InkStorySource(base: FolderStorySource(folder: folder), file: file, seed: inkSeed)
        }
        return FolderStorySource(folder: argument)
    }

    /// The folder and name of the ink file `argument` names: the file itself, or the one `*.ink.json` of a
    /// folder without story.json.
    static func inkFile(_ argument: String) -> (folder: String, file: String)? {
        let url = URL(fileURLWithPath: argument)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else { return nil }
        if !isFolder.boolValue {
            guard InkStorySource.isInkFile(url.lastPathComponent) else { return nil }
            return (url.deletingLastPathComponent().path, url.lastPathComponent)
        }
        guard !FileManager.default.fileExists(atPath: url.appendingPathComponent("story.json").path),
            let names = try? FileManager.default.contentsOfDirectory(atPath: url.path)
        else { return nil }
        let inks = names.filter(InkStorySource.isInkFile)
        return inks.count == 1 ? (url.path, inks[0]) : nil
    }
}
