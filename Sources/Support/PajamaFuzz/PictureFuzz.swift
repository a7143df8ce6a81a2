import PajamaModel
import PajamaImage

/// The picture path: bytes decoded as a story picture (ImageDecoder knows the format by the first bytes:
/// PNG, JPEG, WebP or GIF) and as text art, then a decoded bitmap drawn into cells by chafa at a page's
/// picture size, in every colour mode the reader uses.
public enum PictureFuzz {
    private static let png = try! AssetPath(validating: "assets/fuzz.png")
    private static let text = try! AssetPath(validating: "assets/fuzz.txt")

    /// The pictures the bytes decode to (as a picture named .png, as text art), each drawn.
    @discardableResult
    public static func fuzzOne(_ bytes: [UInt8]) -> [StoryImage] {
        let images = [(try? ImageDecoder.decode(path: png, bytes: bytes)), (try? ImageDecoder.decodeText(bytes, name: text.value))]
            .compactMap { $0 }
        images.forEach(draw)
        return images
    }

    static func draw(_ image: StoryImage) {
        guard case .bitmap(let width, let height, let rgba) = image else { return }
        precondition(rgba.count == width * height * 4, "a \(width)x\(height) bitmap of \(rgba.count) bytes")
        for mode in PictureColorMode.allCases {
            let cells = ChafaRenderer.render(pixelWidth: width, pixelHeight: height, rgba: rgba, width: 40, height: 12, mode: mode)
            precondition(cells.width <= 40 && cells.height <= 12 && cells.cells.count == cells.width * cells.height,
                         "\(cells.width)x\(cells.height) cells (\(cells.cells.count)) for a 40x12 box")
        }
    }
}
