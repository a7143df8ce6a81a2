import Foundation
import PajamaTestSupport

/// The same picture in every format Pajama reads, made by Pillow (Debian's python3-pil, which encodes with
/// libjpeg-turbo, libwebp and its own GIF writer; scripts/install-deps.sh installs it): the bundled story's
/// title picture (96x48) and a generated 1024x768 "photo" (a coloured Mandelbrot set with noise: edges,
/// gradients and grain, like a photo or a painting), each as PNG, baseline and progressive JPEG (quality
/// 90), lossy WebP (quality 90), lossless WebP and GIF (256 colours).
struct PictureFormatFiles {
    /// The variants, in the order of the rows: a label and the file's name suffix.
    static let variants: [(label: String, suffix: String)] = [
        ("PNG", ".png"), ("JPEG", ".jpg"), ("JPEG, progressive", "-progressive.jpg"), ("WebP, lossy", ".webp"),
        ("WebP, lossless", "-lossless.webp"), ("GIF", ".gif"),
    ]

    let folder: TemporaryDirectory

    /// Makes `title*` from `titlePNG` and `photo*` in a new temporary folder.
    init(titlePNG: String) throws {
        folder = try TemporaryDirectory(prefix: "pajama-bench-formats")
        let script = """
            import sys
            from PIL import Image, ImageOps
            def save_all(image, out):
                rgb = image.convert("RGB")
                image.save(out + ".png")
                rgb.save(out + ".jpg", quality=90)
                rgb.save(out + "-progressive.jpg", quality=90, progressive=True)
                rgb.save(out + ".webp", quality=90)
                image.convert("RGBA").save(out + "-lossless.webp", lossless=True)
                rgb.quantize(256).save(out + ".gif")
            title = Image.open(sys.argv[1])
            title.load()
            save_all(title, sys.argv[2] + "/title")
            fractal = Image.effect_mandelbrot((1024, 768), (-2.2, -1.2, 1.0, 1.2), 120)
            photo = ImageOps.colorize(fractal, black=(12, 20, 60), white=(250, 190, 90), mid=(170, 60, 90))
            grain = Image.merge("RGB", [Image.effect_noise((1024, 768), 24)] * 3)
            save_all(Image.blend(photo, grain, 0.15), sys.argv[2] + "/photo")
            """
        let result = try ChildProcess.run("/usr/bin/python3", ["-c", script, titlePNG, folder.path], timeout: 120)
        guard result.status == 0 else {
            folder.remove()
            throw Skip(reason: "Pillow could not make the pictures (scripts/install-deps.sh installs python3-pil): \(result.stderr)")
        }
    }

    /// The bytes of `title` or `photo` in a variant.
    func bytes(_ picture: String, _ suffix: String) throws -> [UInt8] {
        try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder.path + "/" + picture + suffix)))
    }
}
