import PajamaLoading
import PajamaModel
import PajamaStorage
import PajamaTerminal

/// The author's live preview (`pajama read FOLDER --watch`): a task of the reading session that takes the
/// watcher's batches of file events, has the content drop what changed, shows the page again, validates the
/// story as `pajama validate` does and shows what it finds. Owned by `ReaderApp.read`, cancelled when the
/// reader quits; the watcher's descriptor is closed then, whatever ended the session.
@MainActor
struct StoryWatch {
    let watcher: FolderWatcher
    private let task: Task<Void, Never>

    init(watcher: FolderWatcher, content: StoryContentManager, controller: ReaderController) {
        self.watcher = watcher
        task = Task { @MainActor [batches = watcher.batches] in
            await Self.validate(content, controller: controller)  // problems there already show at once
            for await batch in batches {
                let change = StoryChange.plan(batch)
                guard !change.isEmpty else { continue }
                PajamaLog.loading.info("story files changed", metadata: ["files": "\(batch.map(\.path).joined(separator: ", "))"])
                if let problem = await content.reload(change) {
                    PajamaLog.loading.warning("story.json changed but cannot be used: \(problem)")
                }
                guard !Task.isCancelled else { return }
                await controller.storyChanged(
                    title: content.manifest.title, beats: change.everything ? nil : change.beats,
                    assets: change.everything ? nil : change.assets)
                await Self.validate(content, controller: controller)
            }
        }
    }

    /// Validates the story with the same validator and asset checks as `pajama validate`.
    private static func validate(_ content: StoryContentManager, controller: ReaderController) async {
        let report = await StoryValidator.validate(source: content.source, probe: LiveAssetProbe())
        guard !Task.isCancelled else { return }
        controller.showProblems(report.findings.map { StoryFormatError.printable($0.description, limit: 2000) })
    }

    /// Ends the watch: the task is cancelled and the watcher's thread has closed its descriptor.
    func close() async {
        task.cancel()
        await watcher.close()
    }
}
