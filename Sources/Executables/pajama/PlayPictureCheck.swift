import PajamaLoading
import PajamaModel
import PajamaReading

/// What `pajama play` says of the pictures on the pages it reads: each page's picture is loaded once,
/// through the story content and so through the decoder the reader shows it with (`ImageDecoder`, the one
/// `validate` checks with too), and each that cannot be shown is reported with the reason the reader and
/// `validate` give. The reading goes on past such a picture, as the reader's does (a "picture unavailable"
/// frame); a critical one stops it already, before the page (exit 2).
@MainActor
final class PlayPictureCheck {
    private let content: StoryContentManager
    private var task: Task<[String], Never>?

    init(content: StoryContentManager) { self.content = content }

    /// Checks the pictures of the pages `events` (one view model's) show, until the stream ends.
    func follow(_ events: AsyncStream<NavigatorEvent>) {
        task = Task { [content] in
            var checked: Set<AssetPath> = []
            var problems: [String] = []
            for await event in events {
                let page: PageState
                switch event {
                case .stateChanged(.page(let shown)), .stateChanged(.finished(let shown, _)): page = shown
                default: continue
                }
                guard let picture = page.page.imageUrl, checked.insert(picture).inserted else { continue }
                do {
                    _ = try await content.loadImage(picture)
                } catch {
                    problems.append("\(where: page.location): picture unavailable: \(error)")
                }
            }
            return problems
        }
    }

    /// The problems found, once the events have ended (close the view model first), in reading order.
    func finish() async -> [String] { await task?.value ?? [] }
}
