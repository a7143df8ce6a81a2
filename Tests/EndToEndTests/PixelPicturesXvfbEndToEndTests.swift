import Foundation
import PajamaStorage
import PajamaTestSupport
import Testing

/// Pictures in real pixels, checked on the glass of real terminals (issue 29): the real binary reads a story
/// with a picture in xterm as a VT340 and mlterm (sixel) and in kitty (the kitty graphics protocol), each on its own
/// Xvfb display. The screen is dumped (`xwd`) and the picture's place compared with the source picture
/// scaled to it (PSNR); the next page shows it gone; a resize draws it again at the new size. Where it went
/// is read from the log (`pictures: ... picture at cell X,Y, CxR cells, WxH pixels`).
@Suite(.serialized) struct PixelPicturesXvfbEndToEndTests {
    let pajama = PackagePaths.executable("pajama").path

    /// A 96x64 picture of gradients and blocks.
    static let pictureWidth = 96, pictureHeight = 64
    static let rgba: [UInt8] = (0..<(pictureWidth * pictureHeight)).flatMap { index -> [UInt8] in
        let x = index % pictureWidth, y = index / pictureWidth
        if x >= 64 { return y < 32 ? [230, 200, 20, 255] : [20, 160, 70, 255] }
        return [UInt8(x * 4), UInt8(y * 3), 150, 255]
    }
    /// Faithful: over this PSNR (dB) the place shows the picture; under `goneBelow` it shows something else.
    static let faithful = 20.0, goneBelow = 13.0

    struct Placement: Equatable {
        var x, y, columns, rows, pixelWidth, pixelHeight: Int
        var cellWidth: Int { pixelWidth / columns }
        var cellHeight: Int { pixelHeight / rows }
    }

    /// A story of two pages, the first with the picture (also read by PixelPicturesLateReplyEndToEndTests).
    static func makeStory() throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory(prefix: "pajama-pixels")
        try dir.write("story.json", #"{"format":1,"id":"pixels","title":"Pixels","startBeatId":"a","beats":["a"]}"#)
        try dir.write("beats/a.json", #"""
            {"id":"a","pages":[{"id":"p","type":"text","lines":["A page with a picture."],"imageUrl":"assets/picture.png"},
            {"id":"q","type":"text","lines":["A page without one."]}]}
            """#)
        try dir.write("assets/picture.png", Data(PNGFile.rgba(width: Self.pictureWidth, height: Self.pictureHeight, pixels: Self.rgba)))
        return dir
    }

    /// The placements logged so far.
    static func placements(_ log: URL, kind: String) -> [Placement] {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        let pattern = try! NSRegularExpression(pattern: "pictures: \(kind) picture at cell (\\d+),(\\d+), (\\d+)x(\\d+) cells, (\\d+)x(\\d+) pixels")
        return pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
            let n = (1...6).map { Int(text[Range(match.range(at: $0), in: text)!])! }
            return Placement(x: n[0], y: n[1], columns: n[2], rows: n[3], pixelWidth: n[4], pixelHeight: n[5])
        }
    }

    static func takenAway(_ log: URL) -> Int {
        ((try? String(contentsOf: log, encoding: .utf8)) ?? "").components(separatedBy: "pictures: picture taken away").count - 1
    }

    /// The PSNR of the screen at `placement` (window at the screen's top left, no border) against the source
    /// picture scaled to the part of the box it fills, a few pixels in from its edges (and above the last
    /// sixel band, which a sixel picture's height may cut).
    static func likeness(_ screen: RGBImage, _ placement: Placement) -> Double {
        let scale = min(Double(placement.pixelWidth) / Double(pictureWidth), Double(placement.pixelHeight) / Double(pictureHeight))
        let fittedWidth = Int((Double(pictureWidth) * scale).rounded()), fittedHeight = Int((Double(pictureHeight) * scale).rounded())
        let left = placement.x * placement.cellWidth + (placement.pixelWidth - fittedWidth) / 2
        let top = placement.y * placement.cellHeight + (placement.pixelHeight - fittedHeight) / 2
        let inset = 3, width = fittedWidth - 2 * inset, height = fittedHeight - 2 * inset - 6
        guard width > 8, height > 8, left + fittedWidth <= screen.width, top + fittedHeight <= screen.height else { return 0 }
        let expected = RGBImage.scaled(rgba: rgba, width: pictureWidth, height: pictureHeight, to: fittedWidth, fittedHeight)
        return screen.crop(x: left + inset, y: top + inset, width: width, height: height).psnr(expected.crop(x: inset, y: inset, width: width, height: height))
    }

    /// Reads the story in `terminal` (its command line before the program's) on a private display: the
    /// picture shows at its place, the next page takes it away, back brings it, and a resize draws it again.
    func check(kind: String, terminal: [String], screenshot name: String) throws {
        let display = try XvfbDisplay(width: 900, height: 560)
        defer { display.stop() }
        let story = try Self.makeStory(), home = try TemporaryDirectory(prefix: "pajama-pixels-home")
        defer { story.remove(); home.remove() }
        var environment = display.environment()
        for (key, value) in Paths.environment(home: home.path) { environment[key] = value }
        for key in ["TMUX", "STY", "TERM"] { environment.removeValue(forKey: key) }
        let log = home.url.appendingPathComponent("state/pajama/pajama.log")
        let output = home.url.appendingPathComponent("terminal.log").path
        // The mode is named (`--pictures`): under a busy machine kitty (software GL) answered the start-up
        // queries after the 100 ms they are given, and the reader rightly chose cells (the suite failed so
        // once beside a release build). Detection is checked on a real pty by GraphicsProbeTests; this test
        // checks the pixels on the glass.
        let pid = try ChildProcess.spawn(terminal[0], Array(terminal.dropFirst()) + ["sh", "-c", Self.whenAnswering, "sh", pajama, "read", "--no-sound", "--pictures", kind, "--log-level", "debug", story.path],
                                         outputFile: output, errorFile: output, environment: environment)
        defer { ChildProcess.terminate(pid) }
        func alive() -> String? {
            ChildProcess.exitDescription(pid).map { "\(terminal[0]) ended: \($0): \((try? String(contentsOfFile: output, encoding: .utf8)) ?? "")" }
        }

        // The picture on the glass.
        var shown: Placement?
        var best = 0.0
        let appeared = Poll.until(timeout: 40, interval: 200_000) {
            guard alive() == nil, let last = Self.placements(log, kind: kind).last, let screen = try? display.screenshot() else { return false }
            best = Self.likeness(screen, last)
            shown = last
            return best >= Self.faithful
        }
        try #require(appeared, "no \(kind) picture on the screen: best PSNR \(best) dB at \(String(describing: shown)); \(alive() ?? ""); log: \(Self.tail(log))")
        let placement = try #require(shown)
        if let screen = try? display.screenshot() { Self.keep(screen, name: name) }

        // The next page: taken away, the place no longer shows it.
        try display.run("xdotool", ["mousemove", "20", "20"])
        try display.run("xdotool", ["key", "space"])
        var after = 99.0
        let gone = Poll.until(timeout: 30, interval: 200_000) {
            guard Self.takenAway(log) >= 1, let screen = try? display.screenshot() else { return false }
            after = Self.likeness(screen, placement)
            return after < Self.goneBelow
        }
        #expect(gone, "the next page still shows the picture: PSNR \(after) dB; log: \(Self.tail(log))")

        // Back, then a resize: drawn again at the new size, at its new place.
        try display.run("xdotool", ["key", "Left"])
        let back = Poll.until(timeout: 30, interval: 200_000) {
            guard let last = Self.placements(log, kind: kind).last, let screen = try? display.screenshot() else { return false }
            return Self.placements(log, kind: kind).count >= 2 && Self.likeness(screen, last) >= Self.faithful
        }
        #expect(back, "the picture did not come back: log \(Self.tail(log))")
        if kind == "kitty" {  // sent once: back places it by its id, the terminal kept its data
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            #expect(text.contains("(placed by id)"), "back did not place the picture by id: \(Self.tail(log))")
        }
        let window = try display.run("xdotool", ["search", "--onlyvisible", "--class", terminal[0]])
            .split(separator: "\n").first.map(String.init) ?? ""
        try display.run("xdotool", ["windowsize", window, "860", "520"])
        var resized: Placement?
        let redrawn = Poll.until(timeout: 30, interval: 200_000) {
            guard let last = Self.placements(log, kind: kind).last, last.columns != placement.columns || last.rows != placement.rows,
                let screen = try? display.screenshot()
            else { return false }
            resized = last
            best = Self.likeness(screen, last)
            return best >= Self.faithful
        }
        #expect(redrawn, "no redraw at the new size: \(String(describing: resized)), PSNR \(best) dB; log: \(Self.tail(log))")
        try display.run("xdotool", ["key", "q"])
        #expect(Poll.until(timeout: 20) { ChildProcess.exitDescription(pid) != nil }, "the terminal did not close after q")
    }

    /// Starts the program once the terminal answers (its device attributes): a terminal busy starting up
    /// (kitty renders with llvmpipe here) may answer later than the reader's 100 ms, which then reads in
    /// cells, as it should; this test is about pixels, so it waits for a terminal that listens.
    static let whenAnswering = #"stty raw -echo; printf '\033[c'; r=''; while [ "${r%c}" = "$r" ]; do r="$r$(dd bs=1 count=1 2>/dev/null)"; done; stty sane; exec "$@""#

    static func tail(_ log: URL) -> String {
        String(((try? String(contentsOf: log, encoding: .utf8)) ?? "(no log)").suffix(1200))
    }

    /// Keeps a screenshot for docs/ when PAJAMA_SCREENSHOTS names a folder (as a binary PPM; see docs/reader.md).
    static func keep(_ screen: RGBImage, name: String) {
        guard let folder = ProcessInfo.processInfo.environment["PAJAMA_SCREENSHOTS"], !folder.isEmpty else { return }
        let header = Array("P6\n\(screen.width) \(screen.height)\n255\n".utf8)
        try? Data(header + screen.rgb).write(to: URL(fileURLWithPath: folder).appendingPathComponent(name + ".ppm"))
    }

    @Test func xtermAsVT340ShowsThePictureInSixels() throws {
        try check(kind: "sixel", terminal: ["xterm", "-ti", "vt340", "-b", "0", "-geometry", "120x36+0+0",
                                            "-xrm", "XTerm*numColorRegisters: 256", "-xrm", "XTerm*scrollBar: false", "-e"], screenshot: "sixel")
    }

    /// mlterm speaks sixel too (its device attributes say so: `auto` picks sixel there); no scrollbar or
    /// inner border, so the window's pixels start at the screen's top left.
    @Test func mltermShowsThePictureInSixels() throws {
        try check(kind: "sixel", terminal: ["mlterm", "--sb=false", "--border=0", "-w", "14", "-geometry", "84x26+0+0", "-e"], screenshot: "sixel-mlterm")
    }

    @Test func kittyShowsThePictureWithItsGraphicsProtocol() throws {
        try check(kind: "kitty", terminal: ["kitty", "--config", "NONE", "-o", "font_size=9", "-o", "window_padding_width=0",
                                            "-o", "placement_strategy=top-left", "-o", "remember_window_size=no",
                                            "-o", "initial_window_width=840", "-o", "initial_window_height=500"], screenshot: "kitty")
    }
}
