import PajamaTestSupport
import PajamaCore
import PajamaImage
import PajamaTerminal

/// `page-turn`: a key action on cached content to a composed frame (CellGrid), at 80x24 and 200x60.
struct PageTurnScenario: Scenario {
    let name = "page-turn"
    let summary = "key action to frame composed on cached content, 80x24 and 200x60"

    @MainActor
    func run(_ options: BenchOptions) async throws -> [BenchRow] {
        let source = FolderStorySource(folder: PackagePaths.stories.appendingPathComponent("lantern-keeper").path)
        let content = try await StoryContentManager.open(
            source: source, diskCache: nil,
            decodeImage: { path, bytes throws(AssetLoadError) in try ImageDecoder.decode(path: path, bytes: bytes) }, sound: nil,
            preloading: false)
        var rows: [BenchRow] = []
        for (w, h) in [(80, 24), (200, 60)] {
            let vm = ReaderViewModel(content: content, sound: nil, progress: nil)
            await vm.start()
            // Warm every beat and picture so turns are on cached content.
            for id in content.manifest.beats ?? [] {
                let beat = try await content.loadBeat(id)
                for page in beat.pages { if let p = page.imageUrl { _ = try? await content.loadImage(p) } }
            }
            var samples: [Double] = []
            for _ in 0..<options.iterations(2000) {
                let start = now()
                if case .page(let p) = vm.state, !p.page.choices.isEmpty {
                    await vm.changePage(.choose(0))
                } else if case .finished = vm.state {
                    await vm.restart()
                } else {
                    await vm.changePage(.advance)
                }
                var picture: StoryImage?
                if case .page(let p) = vm.state, let path = p.page.imageUrl { picture = await content.cachedImage(path) }
                if case .page(let p) = vm.state {
                    let model = ScreenModel(storyTitle: content.manifest.title,
                                            content: .page(PageView(page: p.page, revealedLines: p.revealedLines, picture: picture)),
                                            position: p.beat.id, soundStatus: "sound: off")
                    _ = PageRenderer.render(model, width: w, height: h)
                }
                samples.append(now() - start)
            }
            let stats = Statistics(samples)
            rows.append(BenchRow(scenario: name, name: "\(w)x\(h)", unit: .seconds, stats: stats, target: "p99 < 1 ms", met: stats.p99 < 1e-3))
        }
        return rows
    }
}
