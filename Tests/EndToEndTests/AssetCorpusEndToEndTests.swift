import Foundation
import PajamaTestSupport
import Testing

/// The bad-input corpus for assets (issue 11, section 3), through the real binary: `pajama validate
/// --json` decodes every asset with the real decoders (libpng for pictures, libsndfile for sounds), so
/// each case checks the decoder's own refusal, with its file, page, field, words and exit code.
@Suite(.serialized) struct AssetCorpusEndToEndTests {
    static let story = #"{"format":1,"id":"assets","title":"Assets","startBeatId":"a","beats":["a"]}"#
    static let beat = """
    {"id":"a","pages":[
      {"id":"t","type":"title","title":"Hello","imageUrl":"assets/pic.png","imageAlt":"A wave"},
      {"id":"x","type":"text","lines":["one"],"imageUrl":"assets/art.txt","imageAlt":"A star",
       "tools":[{"name":"sound_effect","args":{"sound_url":"assets/s.wav","trigger":"page_enter"}}]},
      {"id":"f","type":"text","lines":["end"],
       "tools":[{"name":"sound_effect","args":{"sound_url":"assets/s.flac","trigger":"page_enter"}}]}]}
    """

    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var file: String
        var bytes: @Sendable () throws -> [UInt8]
        var page: String
        var path: String
        var contains: String
        var description: String { name }
    }

    static func png(width: Int, height: Int) -> [UInt8] {
        PNGFile.rgba(width: width, height: height, pixels: [UInt8](repeating: 0x80, count: width * height * 4))
    }

    static func wav(_ patch: (inout [UInt8]) -> Void = { _ in }) -> [UInt8] {
        var bytes = TestSound.wav(seconds: 0.2, rate: 8000)
        patch(&bytes)
        return bytes
    }

    static func le32(_ v: UInt32) -> [UInt8] { withUnsafeBytes(of: v.littleEndian) { Array($0) } }

    /// A real 1 s FLAC whose STREAMINFO says it holds `seconds` of sound (the 36-bit total-samples field).
    static func flac(declaringSeconds seconds: Int) throws -> [UInt8] {
        let sound = try EncodedSound.make(.flac, seconds: 1, rate: 8000, channels: 1)
        defer { sound.folder.remove() }
        var bytes = sound.bytes
        // "fLaC", a 4-byte block header, then STREAMINFO: 2+2+3+3 bytes of sizes, then 20 bits rate,
        // 3 bits channels, 5 bits bits-per-sample and 36 bits of total samples (from byte 8+13).
        let total = UInt64(seconds) * 8000
        let at = 8 + 13
        bytes[at] = (bytes[at] & 0xF0) | UInt8((total >> 32) & 0x0F)
        bytes[at + 1] = UInt8((total >> 24) & 0xFF)
        bytes[at + 2] = UInt8((total >> 16) & 0xFF)
        bytes[at + 3] = UInt8((total >> 8) & 0xFF)
        bytes[at + 4] = UInt8(total & 0xFF)
        return bytes
    }

    static let cases: [Case] = [
        Case(name: "0-byte PNG", file: "assets/pic.png", bytes: { [] }, page: "t", path: "pages[0].imageUrl", contains: "not a usable picture: not a PNG file"),
        Case(name: "garbage PNG", file: "assets/pic.png", bytes: { Array("this is not a picture at all".utf8) }, page: "t", path: "pages[0].imageUrl", contains: "not a usable picture: not a PNG file"),
        Case(name: "PNG signature then garbage", file: "assets/pic.png", bytes: { [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 0x41, count: 64) }, page: "t", path: "pages[0].imageUrl", contains: "not a usable picture: "),
        Case(name: "truncated PNG", file: "assets/pic.png", bytes: { let p = png(width: 64, height: 64); return Array(p.prefix(p.count / 2)) }, page: "t", path: "pages[0].imageUrl", contains: "not a usable picture: "),
        Case(name: "30000x1 PNG", file: "assets/pic.png", bytes: { png(width: 30_000, height: 1) }, page: "t", path: "pages[0].imageUrl", contains: "30000x1 pixels (at most 4096 per side)"),
        Case(name: "1x30000 PNG", file: "assets/pic.png", bytes: { png(width: 1, height: 30_000) }, page: "t", path: "pages[0].imageUrl", contains: "1x30000 pixels (at most 4096 per side)"),
        Case(name: "text art not UTF-8", file: "assets/art.txt", bytes: { [0x41, 0xFF, 0xFE, 0x0A] }, page: "x", path: "pages[1].imageUrl", contains: "not a usable picture: text art must be UTF-8"),
        Case(name: "text art of 201 lines", file: "assets/art.txt", bytes: { Array(String(repeating: "#\n", count: 201).utf8) }, page: "x", path: "pages[1].imageUrl", contains: "text art is at most 200 lines of 400 characters"),
        Case(name: "0-byte sound", file: "assets/s.wav", bytes: { [] }, page: "x", path: "pages[1].tools[0].args.sound_url", contains: "not a playable sound: the file is empty"),
        Case(name: "garbage sound", file: "assets/s.wav", bytes: { Array("RIFF, but nothing of a sound follows".utf8) }, page: "x", path: "pages[1].tools[0].args.sound_url", contains: "not a playable sound: "),
        Case(name: "WAV header only", file: "assets/s.wav", bytes: { Array(wav().prefix(44)) }, page: "x", path: "pages[1].tools[0].args.sound_url", contains: "not a playable sound: "),
        Case(name: "WAV at 10 Hz", file: "assets/s.wav", bytes: { wav { $0.replaceSubrange(24..<28, with: le32(10)) } }, page: "x", path: "pages[1].tools[0].args.sound_url", contains: "1 channels at 10 Hz is not a usable sound"),
        Case(name: "sound over 16 MB", file: "assets/s.wav", bytes: { wav() + [UInt8](repeating: 0, count: 16 << 20) }, page: "x", path: "pages[1].tools[0].args.sound_url", contains: "assets/s.wav: too large: 16 MB, the limit is 16 MB"),
        Case(name: "FLAC declaring 10 hours", file: "assets/s.flac", bytes: { try flac(declaringSeconds: 36_000) }, page: "f", path: "pages[2].tools[0].args.sound_url", contains: "not a playable sound: longer than 30 s"),
        Case(name: "garbage FLAC", file: "assets/s.flac", bytes: { Array("fLaC".utf8) + [UInt8](repeating: 0xFF, count: 100) }, page: "f", path: "pages[2].tools[0].args.sound_url", contains: "not a playable sound: "),
    ]

    func makeStory(_ file: String?, _ bytes: [UInt8]) throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory(prefix: "pajama-asset-corpus")
        try dir.write("story.json", Self.story)
        try dir.write("beats/a.json", Self.beat)
        try dir.write("assets/pic.png", Data(Self.png(width: 4, height: 4)))
        try dir.write("assets/art.txt", "/\\\n\\/\n")
        try dir.write("assets/s.wav", Data(Self.wav()))
        try dir.write("assets/s.flac", Data(try Self.flac(declaringSeconds: 1)))
        if let file { try dir.write(file, Data(bytes)) }
        return dir
    }

    func validate(_ dir: TemporaryDirectory) throws -> (status: Int32, findings: [[String: Any]], stdout: String) {
        let result = try ChildProcess.run(PackagePaths.executable("pajama").path, ["validate", "--json", dir.path])
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return (result.status, object?["findings"] as? [[String: Any]] ?? [], result.stdout)
    }

    @Test func theBaseStoryIsClean() throws {
        let dir = try makeStory(nil, [])
        defer { dir.remove() }
        let (status, findings, stdout) = try validate(dir)
        #expect(status == 0, "\(stdout)")
        #expect(findings.isEmpty, "\(stdout)")
    }

    @Test(arguments: cases)
    func aBadAssetIsRefusedByItsDecoderWhereItIsUsed(_ c: Case) throws {
        let dir = try makeStory(c.file, try c.bytes())
        defer { dir.remove() }
        let (status, findings, stdout) = try validate(dir)
        #expect(status == 1, "\(stdout)")
        let finding = try #require(findings.first { ($0["message"] as? String)?.contains(c.contains) == true }, "\(stdout)")
        #expect(finding["severity"] as? String == "error")
        #expect(finding["file"] as? String == "beats/a.json")
        #expect(finding["beat"] as? String == "a")
        #expect(finding["page"] as? String == c.page)
        #expect(finding["path"] as? String == c.path)
        #expect((finding["message"] as? String)?.contains(c.file) == true, "the message names the asset: \(stdout)")
    }
}
