import PajamaLoading
import PajamaModel

/// A start the reader asked for (`--start BEAT` or `--start BEAT/PAGE`), checked against the story
/// before reading begins, so a typo is an error that names what exists rather than a half-drawn screen.
public enum StartLocation {
    /// Why a requested start cannot be used.
    public enum Problem: Error, Equatable, Sendable, CustomStringConvertible {
        /// The story has no such beat; `known` is story.json's list of beats (empty when it has none).
        case noSuchBeat(String, known: [String])
        /// The beat has no such page; `known` is the beat's pages.
        case noSuchPage(String, beat: String, known: [String])
        /// The beat exists but could not be loaded.
        case cannotLoad(beat: String, AssetLoadError)

        /// A mistake in the request (a usage error) rather than a story that cannot be read.
        public var isUsageError: Bool {
            if case .cannotLoad = self { return false }
            return true
        }

        public var description: String {
            switch self {
            case .noSuchBeat(let beat, let known):
                let list = known.isEmpty ? "story.json does not list its beats" : "its beats: \(Self.list(known))"
                return "no beat \"\(StoryFormatError.printable(beat))\" in this story (\(list))"
            case .noSuchPage(let page, let beat, let known):
                return "no page \"\(StoryFormatError.printable(page))\" in beat \"\(beat)\" (its pages: \(Self.list(known)))"
            case .cannotLoad(let beat, let error):
                return "beat \"\(beat)\" cannot be loaded: \(error)"
            }
        }

        /// Names, shortened when there are many.
        static func list(_ names: [String], limit: Int = 12) -> String {
            let shown = names.prefix(limit).joined(separator: ", ")
            return names.count > limit ? shown + ", and \(names.count - limit) more" : shown
        }
    }

    /// The location to start at: the page, or the beat's first page when `page` is nil.
    public static func resolve(beat beatId: String, page pageId: String?, in content: any StoryContent)
        async throws(Problem) -> StoryLocation
    {
        let listed = content.manifest.beats
        if let listed, !listed.contains(beatId) { throw .noSuchBeat(beatId, known: listed) }
        let beat: Beat
        do {
            beat = try await content.loadBeat(beatId)
        } catch {
            if listed == nil, error.kind == .notFound { throw .noSuchBeat(beatId, known: []) }
            throw .cannotLoad(beat: beatId, error)
        }
        guard let pageId else { return StoryLocation(beatId: beatId, pageId: beat.pages.first?.id ?? "") }
        guard beat.page(withId: pageId) != nil else { throw .noSuchPage(pageId, beat: beatId, known: beat.pages.map(\.id)) }
        return StoryLocation(beatId: beatId, pageId: pageId)
    }
}
