import PajamaModel

/// What a batch of file events means for a story being read (`pajama read FOLDER --watch`): which beats,
/// assets and whether story.json must be loaded again. Pure: planned from the events alone.
public struct StoryChange: Sendable, Equatable {
    /// story.json changed: the manifest (title, start beat, criticality) is read again.
    public var manifest = false
    /// Beat ids whose `beats/<id>.json` changed (written, replaced, deleted).
    public var beats: Set<String> = []
    /// Files that may be pictures or sounds the story uses (any other file of the folder).
    public var assets: Set<AssetPath> = []
    /// The watcher lost track (its queue overflowed), or a folder went with its files: every cache of the
    /// story is dropped.
    public var everything = false

    public init(manifest: Bool = false, beats: Set<String> = [], assets: Set<AssetPath> = [], everything: Bool = false) {
        self.manifest = manifest
        self.beats = beats
        self.assets = assets
        self.everything = everything
    }

    /// Nothing the reader uses changed (only editors' scratch files, or folders with nothing in them yet).
    public var isEmpty: Bool { !manifest && beats.isEmpty && assets.isEmpty && !everything }

    /// The reloads `events` call for: story.json is the manifest, `beats/<id>.json` a beat, any other file a
    /// possible asset. Editors' scratch files (hidden names, `~` backups, `.swp`, `.tmp`, vim's `4913`) and
    /// new folders by themselves change nothing; a folder gone (with files that may be beats or assets) or
    /// the watcher's queue overflowing changes everything.
    public static func plan(_ events: [FolderEvent]) -> StoryChange {
        var change = StoryChange()
        for event in events {
            switch event.kind {
            case .overflow, .folderRemoved:
                guard event.kind == .overflow || !isScratch(event.path) else { continue }
                change.everything = true
                change.manifest = true
            case .folderAdded:
                continue
            case .written, .removed:
                guard !isScratch(event.path) else { continue }
                if event.path == "story.json" {
                    change.manifest = true
                } else if let id = beatId(event.path) {
                    change.beats.insert(id)
                } else if let path = try? AssetPath(validating: event.path) {
                    change.assets.insert(path)
                }
            }
        }
        return change
    }

    /// The beat id of `beats/<id>.json`, nil for any other path.
    static func beatId(_ path: String) -> String? {
        guard path.hasPrefix("beats/"), path.hasSuffix(".json") else { return nil }
        let id = String(path.dropFirst("beats/".count).dropLast(".json".count))
        return StoryManifest.isValidId(id) ? id : nil
    }

    /// A file editors write on the way to saving (or beside it), never a story's own.
    static func isScratch(_ path: String) -> Bool {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return name.hasPrefix(".") || name.hasSuffix("~") || name.hasSuffix(".swp") || name.hasSuffix(".swx") || name.hasSuffix(".tmp")
            || name == "4913"
    }
}
