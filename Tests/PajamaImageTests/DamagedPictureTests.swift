import PajamaModel
import Testing
@testable import PajamaImage

/// Truncated and corrupt files of every format: an error that names the file and says why, never a crash,
/// a hang or a half-grey picture.
@Suite struct DamagedPictureTests {
    static let files = ["baseline.jpg", "progressive.jpg", "grey.jpg", "cmyk.jpg", "orientation-6.jpg",
                        "lossy.webp", "lossless.webp", "alpha-lossy.webp", "animated.webp", "plain.gif", "transparent.gif"]

    /// Every cut of every file, from its first byte to its last but one: a JPEG or WebP cut anywhere is an
    /// error; a GIF cut after its first frame's pixels may still show that frame, and must then be whole.
    @Test(arguments: files)
    func everyTruncationIsAnErrorOrTheWholeFirstFrame(name: String) throws {
        let bytes = try PictureFixture.bytes(name)
        let whole = try PictureFixture.decode(name)
        let path = try AssetPath(validating: "assets/" + name)
        for cut in 0..<(bytes.count - 1) {
            do {
                let image = try ImageDecoder.decode(path: path, bytes: Array(bytes[..<cut]))
                #expect(name.hasSuffix(".gif") && image == whole, "\(name) cut at \(cut) of \(bytes.count) decoded")
            } catch {
                #expect(error.subject == path.value)
                #expect(!error.detail.isEmpty, "\(name) cut at \(cut)")
            }
        }
    }

    /// Cut in the middle of the picture data, each format says the file is truncated.
    @Test(arguments: ["baseline.jpg", "progressive.jpg", "lossy.webp", "lossless.webp", "plain.gif"])
    func aFileCutInTheMiddleSaysItIsTruncated(name: String) throws {
        let bytes = try PictureFixture.bytes(name)
        let cut = Array(bytes[..<(bytes.count * 3 / 4)])
        let error = #expect(throws: AssetLoadError.self) { try ImageDecoder.decode(path: AssetPath(validating: "assets/" + name), bytes: cut) }
        #expect(error?.detail == "the file ends before the picture does (truncated)", "\(name): \(error?.detail ?? "")")
        #expect(error.map(String.init(describing:))?.contains("assets/" + name) == true)
    }

    /// Damage inside the picture data (after the headers): an error, not a smeared picture. WebP and GIF:
    /// 24 bytes in the middle of the file set to 0xFF. JPEG: the first scan's coded data all 0xFE
    /// (libjpeg reports "Corrupt JPEG data"; damage that happens to form valid Huffman codes cannot be seen
    /// by any decoder, and shows as a garbled picture, so the whole scan is replaced).
    @Test(arguments: ["baseline.jpg", "progressive.jpg", "grey.jpg", "cmyk.jpg", "lossy.webp", "lossless.webp", "plain.gif"])
    func corruptPictureDataIsAnError(name: String) throws {
        var bytes = try PictureFixture.bytes(name)
        if name.hasSuffix(".jpg") {
            let sos = try #require(bytes.indices.first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA })
            let start = sos + 2 + (Int(bytes[sos + 2]) << 8 | Int(bytes[sos + 3]))
            let end = try #require(bytes.indices.first { $0 > start && bytes[$0] == 0xFF && bytes[$0 + 1] != 0 })
            for i in start..<end { bytes[i] = 0xFE }
        } else {
            let start = bytes.count / 2
            for i in start..<min(bytes.count - 4, start + 24) { bytes[i] = 0xFF }
        }
        let error = #expect(throws: AssetLoadError.self) { try ImageDecoder.decode(path: AssetPath(validating: "assets/" + name), bytes: bytes) }
        #expect(error?.kind == .decoding, "\(name): \(String(describing: error))")
        if name.hasSuffix(".jpg") { #expect(error?.detail.hasPrefix("Corrupt JPEG data") == true, "\(name): \(error?.detail ?? "")") }
    }

    /// Each byte of each file's first 64 bytes (its headers) set to 0 or 0xFF in turn: whatever the
    /// decoders make of it, they return (a picture within limits or an error).
    @Test(arguments: files)
    func damagedHeadersNeverCrash(name: String) throws {
        let bytes = try PictureFixture.bytes(name)
        let path = try AssetPath(validating: "assets/" + name)
        for i in 0..<min(64, bytes.count) {
            for value: UInt8 in [0x00, 0xFF, bytes[i] ^ 0x10] {
                var damaged = bytes
                damaged[i] = value
                if case .bitmap(let width, let height, let rgba)? = try? ImageDecoder.decode(path: path, bytes: damaged) {
                    #expect(rgba.count == width * height * 4 && width <= 4096 && height <= 4096)
                }
            }
        }
    }
}
