import Foundation
import PajamaModel
import PajamaImage
import PajamaTerminal
import PajamaTestSupport

/// `pixels`: pictures in pixels (issue 29). For the title page's picture (96x48 PNG) and a 1024x768 one,
/// in the box the title page gives a picture at 200x60 cells of 10x20 pixels, in the same run: chafa's
/// symbols (256 colours, what cells cost), Pajama's sixel and kitty encodings (`PixelEncoder`, in process,
/// the picture decoded already), and libsixel's `img2sixel` on the same PNG scaled to the same pixels (a
/// process: its start and PNG decode are in its time). Bytes per picture in the notes.
struct PixelPictureScenario: Scenario {
    let name = "pixels"
    let summary = "sixel and kitty encoding at 200x60 beside chafa symbols and img2sixel, bytes per picture"

    func run(_ options: BenchOptions) async throws -> [BenchRow] {
        let start = try BundledStartBeat()
        let page = try start.beat().pages[0]
        guard let path = page.imageUrl else { throw ScenarioFailure(description: "the title page has no picture") }
        let titleBytes = try start.source.readSync(path.description)
        let model = ScreenModel(storyTitle: start.manifest.title, content: .page(PageView(page: page, revealedLines: 1)), position: "", soundStatus: "")
        guard let box = PageRenderer.pictureBox(for: model, width: 200, height: 60) else { throw ScenarioFailure(description: "no picture box at 200x60") }
        let folder = try TemporaryDirectory(prefix: "pajama-bench-pixels")
        defer { folder.remove() }
        let photo = Self.photo(width: 1024, height: 768)
        let photoFile = try folder.write("photo.png", Data(PNGFile.rgba(width: 1024, height: 768, pixels: photo)))
        let titleFile = try folder.write("title.png", Data(titleBytes))
        let img2sixel = ["/usr/bin/img2sixel", "/usr/local/bin/img2sixel"].first { FileManager.default.isExecutableFile(atPath: $0) }
        var rows: [BenchRow] = []
        for (label, file, bytes, iterations) in [("title 96x48", titleFile, titleBytes, 40), ("photo 1024x768", photoFile, [UInt8](try Data(contentsOf: photoFile)), 10)] {
            let image = try ImageDecoder.decode(path: AssetPath(validating: "assets/picture.png"), bytes: bytes)
            guard case .bitmap(let width, let height, let rgba) = image else { continue }
            let backdrop = PictureBackdrop(background: 0x101018)
            let symbolsRow = "chafa symbols, \(label), 200x60"
            var cells = PictureCells.empty
            let symbols = measure(iterations: options.iterations(iterations), warmup: 2) {
                cells = PictureRenderer.cells(for: image, width: box.width, height: box.height, look: PictureLook(mode: .indexed256, backdrop: backdrop))
            }
            rows.append(BenchRow(scenario: name, name: symbolsRow, unit: .seconds, stats: Statistics(symbols),
                                 note: "\(cells.width)x\(cells.height) cells, 256 colours"))
            var sixelMedian = 0.0
            for kind in PixelProtocol.allCases {
                let format = PixelFormat(kind, cellWidth: 10, cellHeight: 20)
                var picture: PixelPicture?
                let samples = measure(iterations: options.iterations(iterations), warmup: 2) {
                    picture = PixelEncoder.encode(pixelWidth: width, pixelHeight: height, rgba: rgba, width: box.width, height: box.height,
                                                  format: format, backdrop: backdrop)
                }
                guard let picture else { throw ScenarioFailure(description: "no \(kind) picture for \(label)") }
                let stats = Statistics(samples)
                if kind == .sixel { sixelMedian = stats.median }
                rows.append(BenchRow(scenario: name, name: "\(kind.rawValue), \(label), 200x60", unit: .seconds, stats: stats, baseline: symbolsRow,
                                     note: "\(picture.bytes.count) bytes, \(picture.pixelWidth)x\(picture.pixelHeight) pixels in \(picture.columns)x\(picture.rows) cells"))
            }
            guard let img2sixel else { continue }
            let fitted = PixelEncoder.fittedSize(pixelWidth: width, pixelHeight: height, width: box.width, height: box.height,
                                                 format: PixelFormat(.sixel, cellWidth: 10, cellHeight: 20))
            let output = folder.url.appendingPathComponent("out.six").path
            let reference = try measure(iterations: options.iterations(iterations), warmup: 1) {
                let result = try ChildProcess.run(img2sixel, ["-w", "\(fitted.pixelWidth)", "-h", "\(fitted.pixelHeight)", "-o", output, file.path])
                guard result.status == 0 else { throw ScenarioFailure(description: "img2sixel: \(result.stderr)") }
            }
            let size = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0
            let stats = Statistics(reference)
            rows.append(BenchRow(scenario: name, name: "img2sixel, \(label), 200x60", unit: .seconds, stats: stats, target: "sixel faster",
                                 met: sixelMedian < stats.median,
                                 note: "\(size) bytes, \(fitted.pixelWidth)x\(fitted.pixelHeight) pixels; a process: start and PNG decode included"))
        }
        return rows
    }

    /// A 1024x768 picture with smooth regions, edges and grain (a seeded generator: the same every run).
    static func photo(width: Int, height: Int) -> [UInt8] {
        var generator = SeededGenerator(seed: 29)
        var rgba = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let at = (y * width + x) * 4
                let ring = ((x - 512) * (x - 512) + (y - 384) * (y - 384)) / 4096 % 7
                let grain = Int(generator.next() % 24)
                rgba[at] = UInt8(min(255, x * 255 / width / 2 + ring * 18 + grain))
                rgba[at + 1] = UInt8(min(255, y * 255 / height / 2 + (x / 128 % 2) * 60 + grain))
                rgba[at + 2] = UInt8(min(255, 90 + ring * 20 + grain))
            }
        }
        return rgba
    }
}
