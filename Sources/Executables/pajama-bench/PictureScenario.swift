import PajamaModel
import PajamaImage
import PajamaTerminal
import PajamaTestSupport

/// `picture`: the picture work behind the first page (the start-up figure): decoding the bundled story's
/// title picture (PNG) and rendering it with chafa into the box the title page gives it at 200x60 and 80x24
/// (256 colours, block symbols), in process; then the decoding of the same picture, and of a 1024x768
/// one, in every format Pajama reads (PictureFormatFiles), for PNG, JPEG, WebP and GIF side by side.
struct PictureScenario: Scenario {
    let name = "picture"
    let summary = "decode the title page's PNG, render it with chafa for its 200x60 and 80x24 boxes; decode it and a 1024x768 picture as PNG, JPEG, WebP, GIF"

    func run(_ options: BenchOptions) async throws -> [BenchRow] {
        let start = try BundledStartBeat()
        let source = start.source, manifest = start.manifest
        let page = try start.beat().pages[0]
        guard let path = page.imageUrl else { throw ScenarioFailure(description: "the title page has no picture") }
        let bytes = try source.readSync(path.description)
        var image = StoryImage.textArt(lines: [])
        let decoding = try measure(iterations: options.iterations(200)) { image = try ImageDecoder.decode(path: path, bytes: bytes) }
        var rows = [BenchRow(scenario: name, name: "decode \(path) (\(bytes.count) B)", unit: .seconds, stats: Statistics(decoding))]
        let look = PictureLook(mode: .indexed256)
        for (width, height) in [(200, 60), (80, 24)] {
            let model = ScreenModel(storyTitle: manifest.title, content: .page(PageView(page: page, revealedLines: 1)),
                                    position: "", soundStatus: "")
            guard let box = PageRenderer.pictureBox(for: model, width: width, height: height) else { continue }
            var cells = PictureCells.empty
            let rendering = measure(iterations: options.iterations(60), warmup: 3) {
                cells = PictureRenderer.cells(for: image, width: box.width, height: box.height, look: look)
            }
            rows.append(BenchRow(scenario: name, name: "chafa render, \(width)x\(height)", unit: .seconds, stats: Statistics(rendering),
                                 note: "\(cells.width)x\(cells.height) cells in a \(box.width)x\(box.height) box, 256 colours"))
        }
        return rows + (try formatRows(titlePNG: source.location + "/" + path.value, options: options))
    }

    /// Decoding the same picture in each format, through ImageDecoder (the format known by its bytes).
    private func formatRows(titlePNG: String, options: BenchOptions) throws -> [BenchRow] {
        let files = try PictureFormatFiles(titlePNG: titlePNG)
        defer { files.folder.remove() }
        var rows: [BenchRow] = []
        for (picture, size, iterations) in [("title", "96x48", 200), ("photo", "1024x768", 20)] {
            var pngRow = ""
            for variant in PictureFormatFiles.variants {
                let bytes = try files.bytes(picture, variant.suffix)
                let path = try AssetPath(validating: "assets/\(picture)\(variant.suffix)")
                let samples = try measure(iterations: options.iterations(iterations)) { _ = try ImageDecoder.decode(path: path, bytes: bytes) }
                let row = "decode \(variant.label), \(size) (\(bytes.count) B)"
                if variant.label == "PNG" { pngRow = row }
                rows.append(BenchRow(scenario: name, name: row, unit: .seconds, stats: Statistics(samples),
                                     baseline: variant.label == "PNG" ? nil : pngRow))
            }
        }
        return rows
    }
}
