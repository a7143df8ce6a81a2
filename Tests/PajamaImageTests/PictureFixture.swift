import Foundation
import PajamaModel
import PajamaTestSupport
@testable import PajamaImage

/// The committed pictures of Tests/Fixtures/pictures (scripts/make-picture-fixtures.py): every one shows
/// 32x16 pixels of four 16x8 quadrants, red top left, green top right, blue bottom left, white bottom right.
enum PictureFixture {
    static let folder = PackagePaths.root.appendingPathComponent("Tests/Fixtures/pictures")

    static func bytes(_ name: String) throws -> [UInt8] {
        try [UInt8](Data(contentsOf: folder.appendingPathComponent(name)))
    }

    /// The file decoded as a story picture named `assets/NAME`.
    static func decode(_ name: String, as pathName: String? = nil) throws -> StoryImage {
        try ImageDecoder.decode(path: AssetPath(validating: "assets/" + (pathName ?? name)), bytes: bytes(name))
    }

    /// The quadrants' centres and their colours (RGB).
    static let quadrants: [(x: Int, y: Int, rgb: [Int], name: String)] = [
        (8, 4, [255, 0, 0], "red, top left"), (24, 4, [0, 255, 0], "green, top right"),
        (8, 12, [0, 0, 255], "blue, bottom left"), (24, 12, [255, 255, 255], "white, bottom right"),
    ]
}

/// One pixel of a bitmap, as RGBA.
func pixel(_ image: StoryImage, _ x: Int, _ y: Int) -> [Int] {
    guard case .bitmap(let width, _, let rgba) = image else { return [] }
    let at = (y * width + x) * 4
    return rgba[at..<(at + 4)].map(Int.init)
}

/// The bitmap's size, or nil for text art.
func size(_ image: StoryImage) -> (width: Int, height: Int)? {
    guard case .bitmap(let width, let height, _) = image else { return nil }
    return (width, height)
}

/// Whether two colours are within `tolerance` on every channel (lossy formats move colours a little).
func near(_ a: [Int], _ b: [Int], tolerance: Int = 24) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) <= tolerance }
}
