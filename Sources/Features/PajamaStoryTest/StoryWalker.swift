import PajamaModel
import PajamaStoryFormat

/// One story's beats as `pajama test` walks them: made by the source as they are asked for (ink, Twine, the
/// formats that run a story), or read from the package's `beats/<id>.json` and decoded once each.
///
/// Not shared between tasks: every job of a test run has its own walker over its own source, so a source that
/// makes its beats (a stateful runtime) is never asked by two jobs at once.
final class StoryWalker {
    let source: any StorySource
    let manifest: StoryManifest
    private var decoded: [String: Beat] = [:]

    /// Whether the report's coverage is of beats and pages (a package, or a story made as it is read that
    /// cannot name its parts), so the pages reached are counted; else it is of the source's parts.
    let countsPages: Bool

    /// Why a beat could not be had, in words.
    struct Unreadable: Error {
        var message: String
    }

    init(source: any StorySource) async throws(Unreadable) {
        self.source = source
        countsPages = !source.makesBeats || !(source is any StoryPartsSource)
        do {
            manifest = try StoryDecoder.decodeManifest(try await source.read("story.json"))
        } catch let error as StoryFormatError {
            throw Unreadable(message: "\(error)")
        } catch {
            throw Unreadable(message: "story.json: \(error)")
        }
    }

    /// The beat `id`, as the reader would be given it.
    func beat(_ id: String) async throws(Unreadable) -> Beat {
        if let beat = decoded[id] { return beat }
        if source.makesBeats {
            do {
                guard let beat = try await source.madeBeat(id) else { throw Unreadable(message: "beat \"\(StoryFormatError.printable(id))\" is not made") }
                return beat
            } catch let error as Unreadable {
                throw error
            } catch {
                throw Unreadable(message: "beat \"\(StoryFormatError.printable(id))\": \(error)")
            }
        }
        let file = "beats/\(id).json"
        let beat: Beat
        do {
            beat = try StoryDecoder.decodeBeat(try await source.read(file), file: file, expectedId: id)
        } catch let error as StoryFormatError {
            throw Unreadable(message: "\(error)")
        } catch {
            throw Unreadable(message: "\(file): \(error)")
        }
        decoded[id] = beat
        return beat
    }

    /// What making `beat` showed of the story's choices, when the source can say (`StoryPartsSource`).
    func choicesWeighed(by beat: Beat) async -> [String] {
        guard let parts = source as? any StoryPartsSource else { return [] }
        return await parts.choicesWeighed(by: beat)
    }

    /// The parts of the story reading has gone through by the end of `beat`, when the source can say.
    func partsReached(by beat: Beat) async -> [String] {
        guard let parts = source as? any StoryPartsSource else { return [] }
        return await parts.partsReached(by: beat)
    }
}
