import PajamaLoading
import PajamaModel
import PajamaReading

/// What `pajama play` says of the pictures on the pages it reads: each page's picture is loaded once,
/// through the story content and so through the decoder the reader shows it with (`ImageDecoder`, the one
/// `validate` checks with too), and each that cannot be shown is reported with the reason the reader and
/// `validate` give. The reading goes on past such a picture, as the reader's does (a "picture unavailable"
/// frame); a critical one stops it already, before the page (exit 2).
///
/// The pages are noted as they are shown (an observer of the view model: no task woken per page), and their
/// pictures loaded once the reading is over, in reading order.
final class PlayPictureCheck: Sendable {
    /// The pictures of the pages shown so far, each with the first place it was shown.
    private struct Shown {
        var pictures: Set<AssetPath> = []
        var inOrder: [(picture: AssetPath, location: StoryLocation)] = []
    }

    private let content: any StoryContent
    private let shown = Locked(Shown())

    init(content: any StoryContent) { self.content = content }

    /// Notes the pictures of the pages `viewModel` shows, until it is closed.
    @MainActor
    func follow(_ viewModel: ReaderViewModel) {
        viewModel.observe { [shown] event in
            let page: PageState
            switch event {
            case .stateChanged(.page(let state)), .stateChanged(.finished(let state, _)): page = state
            default: return
            }
            guard let picture = page.page.imageUrl else { return }
            shown.withLock { shown in
                if shown.pictures.insert(picture).inserted { shown.inOrder.append((picture, page.location)) }
            }
        }
    }

    /// The problems of the pictures shown (close the view model first), in reading order.
    func finish() async -> [String] {
        var problems: [String] = []
        for (picture, location) in shown.withLock({ $0.inOrder }) {
            do {
                _ = try await content.loadImage(picture)
            } catch {
                problems.append("\(where: location): picture unavailable: \(error)")
            }
        }
        return problems
    }
}
