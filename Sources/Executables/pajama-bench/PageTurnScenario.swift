import PajamaTestSupport
import PajamaLoading
import PajamaModel
import PajamaReading
import PajamaImage
import PajamaTerminal

/// `page-turn`: a key action on cached content to a composed frame (CellGrid), at 80x24 and 200x60.
/// Pictures are rendered into the `PictureCache` before the timed loop, as the reader has them by the
/// time a page is turned to; each turn looks its cells up and copies them into the frame.
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
            // Warm every beat and picture so turns are on cached content, and render every picture at the
            // size this terminal gives it (256 colours).
            let pictures = PictureCache()
            let mode = PictureColorMode.indexed256
            for id in content.manifest.beats ?? [] {
                let beat = try await content.loadBeat(id)
                for page in beat.pages {
                    guard let path = page.imageUrl, let image = try? await content.loadImage(path) else { continue }
                    let model = frameModel(content.manifest.title, page: page, revealedLines: 1, beatId: beat.id, picture: nil)
                    if let box = PageRenderer.pictureBox(for: model, width: w, height: h) {
                        _ = await pictures.cells(for: image, key: PictureCache.Key(path: path, width: box.width, height: box.height, mode: mode))
                    }
                }
            }
            var samples: [Double] = []
            var composing: [Double] = []
            var diffing: [Double] = []
            var changedCells: [Double] = []
            // As in the reader: the frame on screen and the one composed next take turns in two grids.
            var shown = CellGrid(width: 0, height: 0), next = CellGrid(width: 0, height: 0)
            for _ in 0..<options.iterations(2000) {
                let start = now()
                if case .page(let p) = vm.state, !p.page.choices.isEmpty {
                    await vm.changePage(.choose(0))
                } else if case .finished = vm.state {
                    await vm.restart()
                } else {
                    await vm.changePage(.advance)
                }
                if case .page(let p) = vm.state {
                    var model = frameModel(content.manifest.title, page: p.page, revealedLines: p.revealedLines, beatId: p.beat.id, picture: nil)
                    if let path = p.page.imageUrl, let box = PageRenderer.pictureBox(for: model, width: w, height: h),
                       let cells = await pictures.cached(PictureCache.Key(path: path, width: box.width, height: box.height, mode: mode)) {
                        model = frameModel(content.manifest.title, page: p.page, revealedLines: p.revealedLines, beatId: p.beat.id, picture: cells)
                    }
                    let composeStart = now()
                    _ = PageRenderer.draw(model, into: &next, width: w, height: h)
                    composing.append(now() - composeStart)
                    var changed = 0
                    let diffStart = now()
                    next.forEachChange(since: shown, columns: w, rows: h) { _, _, _ in changed += 1 }
                    diffing.append(now() - diffStart)
                    changedCells.append(Double(changed))
                    swap(&shown, &next)
                }
                samples.append(now() - start)
            }
            let stats = Statistics(samples)
            rows.append(BenchRow(scenario: name, name: "\(w)x\(h)", unit: .seconds, stats: stats, target: "p99 < 1 ms", met: stats.p99 < 1e-3))
            let compose = Statistics(composing)
            let large = w == 200
            rows.append(BenchRow(scenario: name, name: "\(w)x\(h) frame composition only", unit: .seconds, stats: compose,
                                 target: large ? "p99 < 100 us" : nil, met: large ? compose.p99 < 100e-6 : nil,
                                 note: "PageRenderer.draw: the page's cells, into the grid of the frame before last"))
            let changed = Statistics(changedCells)
            rows.append(BenchRow(scenario: name, name: "\(w)x\(h) cells changed since the frame before", unit: .seconds,
                                 stats: Statistics(diffing),
                                 note: "CellGrid.forEachChange (Screen sends these); \(Int(changed.median)) of \(w * h) cells changed (median)"))
        }
        return rows
    }

    private func frameModel(_ title: String, page: Page, revealedLines: Int, beatId: String, picture: PictureCells?) -> ScreenModel {
        ScreenModel(storyTitle: title, content: .page(PageView(page: page, revealedLines: revealedLines, picture: picture)),
                    position: beatId, soundStatus: "sound: off")
    }
}
