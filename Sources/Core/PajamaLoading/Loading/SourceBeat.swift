import PajamaModel

/// A beat as a story's source gives it: the id checked, a made beat held to a package's rules, a beat file
/// decoded, and the errors the reader shows for each. One place for the storage tiers' source step
/// (`BeatStorageCoordinator`) and `DirectStoryContent`, so both say the same of the same story.
enum SourceBeat {
    /// The file a beat is read from in a package (and named by in errors).
    static func path(of id: String) -> String { "beats/\(id).json" }

    /// Refuses an id that no beat file can have.
    static func checkId(_ id: String) throws(AssetLoadError) {
        guard StoryManifest.isValidId(id) else { throw AssetLoadError(.invalidFormat, subject: "beat \(id)", detail: "invalid beat id") }
    }

    /// The source's error in the reader's words: a missing beat names its file.
    static func error(_ error: StorySourceError, id: String) -> AssetLoadError {
        if case .notFound = error { return AssetLoadError(.notFound, subject: "beat \(id)", detail: path(of: id)) }
        return AssetLoadError(error)
    }

    /// A beat a source made (`StorySource.madeBeat`), held to the rules of a decoded one (`StoryDecoder.check`).
    static func checked(_ made: Beat, id: String) throws(AssetLoadError) -> Beat {
        do {
            try StoryDecoder.check(made, file: path(of: id), expectedId: id)
        } catch {
            throw AssetLoadError(.invalidFormat, subject: "beat \(id)", detail: error.description)
        }
        return made
    }

    /// The beat in the bytes of its file.
    static func decoded(_ bytes: [UInt8], id: String) throws(AssetLoadError) -> Beat {
        do {
            return try StoryDecoder.decodeBeat(bytes, file: path(of: id), expectedId: id)
        } catch {
            throw AssetLoadError(.invalidFormat, subject: "beat \(id)", detail: error.description)
        }
    }
}
