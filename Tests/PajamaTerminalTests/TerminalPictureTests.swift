import Foundation
import PajamaModel
import PajamaImage
import PajamaTestSupport
import Testing
@testable import PajamaTerminal

/// Pictures as a given terminal and theme show them: on the Linux console only characters its fonts
/// hold, and transparent line art laid on a backdrop it stands out from.
@Suite struct TerminalPictureTests {
    // MARK: The Linux console

    /// Every character the console-setup fonts (Debian's console-setup-linux 1.221, all Lat15-* and Uni2-*
    /// fonts, read from their Unicode tables) hold in common, of those a picture could use: printable
    /// ASCII, the box-drawing block (U+2500-U+257F) and █ ░ ▒. They lack the other block elements
    /// (▀ ▄ ▌ ▐ ▁ ▂ ... ▖ ▗ ▘ ▝) and ▓.
    static let consoleFontCharacters: Set<Unicode.Scalar> = {
        var set = Set((0x20...0x7E).compactMap(Unicode.Scalar.init))
        set.formUnion((0x2500...0x257F).compactMap(Unicode.Scalar.init))
        set.formUnion(["█", "░", "▒"])
        return set
    }()

    /// Pictures with edges in every direction, flat areas and gradients: the bundled story's pictures,
    /// two colour halves and a colour gradient.
    static func variedPictures() throws -> [StoryImage] {
        var gradient: [UInt8] = []
        for y in 0..<48 { for x in 0..<96 { gradient += [UInt8(x * 2), UInt8(y * 5), UInt8(255 - x * 2), 255] } }
        var images: [StoryImage] = [ChafaRendererTests.redBlue, .bitmap(width: 96, height: 48, rgba: gradient)]
        let folder = PackagePaths.stories.appendingPathComponent("lantern-keeper/assets/images")
        for name in ["storm.png", "title.png", "lamp.png"] {
            let bytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent(name)))
            images.append(try ImageDecoder.decode(path: try AssetPath(validating: "assets/images/\(name)"), bytes: bytes))
        }
        return images
    }

    @Test(arguments: ["linux", "linux-16color"])
    func linuxConsolePicturesUseOnlyCharactersItsFontsHold(term: String) throws {
        for colors in [8, 16] {
            let look = PictureLook(term: term, colors: colors, theme: .builtIn)
            for image in try Self.variedPictures() {
                let cells = PictureRenderer.cells(for: image, width: 40, height: 12, look: look)
                #expect(cells.width > 0 && cells.height > 0)
                let outside = Set(cells.cells.flatMap { $0.text.unicodeScalars }).subtracting(Self.consoleFontCharacters)
                #expect(outside.isEmpty, "TERM=\(term), \(colors) colours: not in the console's fonts: \(outside.map { String($0) }.sorted())")
                // Still a picture: not only blanks.
                #expect(cells.cells.contains { $0.text != " " } || Set(cells.cells.map(\.background)).count > 1)
            }
        }
    }

    @Test func otherTerminalsKeepTheFinerBlockElements() throws {
        let look = PictureLook(term: "xterm-256color", colors: 256, theme: .builtIn)
        #expect(look.symbols == .blocks)
        let storm = try Self.variedPictures()[2]
        let cells = PictureRenderer.cells(for: storm, width: 40, height: 12, look: look)
        #expect(!Set(cells.cells.flatMap { $0.text.unicodeScalars }).isSubset(of: Self.consoleFontCharacters))
    }

    // MARK: Transparent pictures

    static let themes = PackagePaths.root.appendingPathComponent("Themes")

    /// 96x48 pixels of black line art (a frame, a cross and a diagonal, two pixels thick) on a fully
    /// transparent background, as a 1-bit palette PNG decoded by libpng like any story picture.
    static func lineArt() throws -> StoryImage {
        let width = 96, height = 48
        let pixels = (0..<height).map { y in
            (0..<width).map { x in
                x < 2 || x >= width - 2 || y < 2 || y >= height - 2 || abs(x - width / 2) < 1 || abs(y - height / 2) < 1
                    || abs(x - 2 * y) < 2
            }
        }
        return try ImageDecoder.decode(path: try AssetPath(validating: "assets/images/line-art.png"), bytes: PNGFile.lineArt(pixels))
    }

    /// 0xRRGGBB of a picture colour.
    static func rgb(_ color: PictureColor) -> UInt32 {
        switch color {
        case .rgb(let value): value
        case .palette(let index): ColorMapper.rgb(ofPaletteIndex: index)
        }
    }

    /// A theme colour as the terminal shows it at `colors` colours ("#rrggbb", or an ANSI name below 256).
    static func themeColor(_ theme: Theme, _ role: StyleRole, background: Bool, colors: Int) -> UInt32? {
        let style = theme.style(role)
        if colors < 256 {
            guard let name = background ? style.bg8 : style.fg8, let index = ColorMapper.ansiNames.firstIndex(of: name) else { return nil }
            return ColorMapper.rgb(ofPaletteIndex: index)
        }
        return (background ? style.bg : style.fg).flatMap(ColorMapper.parse)
    }

    /// WCAG contrast ratio of two colours (1 to 21).
    static func contrast(_ a: UInt32, _ b: UInt32) -> Double {
        func luminance(_ c: UInt32) -> Double {
            func channel(_ v: UInt32) -> Double {
                let s = Double(v & 0xFF) / 255
                return s <= 0.03928 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4)
            }
            return 0.2126 * channel(c >> 16) + 0.7152 * channel(c >> 8) + 0.0722 * channel(c)
        }
        let (l1, l2) = (luminance(a), luminance(b))
        return (max(l1, l2) + 0.05) / (min(l1, l2) + 0.05)
    }

    /// Cells that show a mark a reader can see: a symbol (not a blank) whose colour stands out from the
    /// colour behind it, each colour being the cell's own or, where it has none, the theme's.
    static func visibleInk(_ cells: PictureCells, theme: Theme, colors: Int) -> Int {
        let themeFg = themeColor(theme, .picture, background: false, colors: colors) ?? 0xFFFFFF
        let themeBg = themeColor(theme, .picture, background: true, colors: colors) ?? 0x000000
        return cells.cells.filter { cell in
            guard cell.text != " ", !cell.text.isEmpty else { return false }
            let fg = cell.foreground.map(rgb) ?? themeFg, bg = cell.background.map(rgb) ?? themeBg
            return contrast(fg, bg) >= 3
        }.count
    }

    @Test(arguments: [1 << 24, 256, 16, 8])
    func blackLineArtOnATransparentBackgroundIsVisibleOnADarkTheme(colors: Int) throws {
        let night = try #require(ThemeLibrary.load("night", paths: [Self.themes]))
        let look = PictureLook(term: "xterm-256color", colors: colors, theme: night)
        let cells = PictureRenderer.cells(for: try Self.lineArt(), width: 48, height: 12, look: look)
        #expect(cells.width == 48 && cells.height == 12)
        // The frame alone crosses every column twice and every row twice.
        let visible = Self.visibleInk(cells, theme: night, colors: colors)
        #expect(visible >= 2 * cells.width, "\(colors) colours: \(visible) cells of visible ink")
    }

    @Test func lineArtOnALightThemeSitsOnTheThemesOwnBackground() throws {
        let paper = try #require(ThemeLibrary.load("paper", paths: [Self.themes]))
        let look = PictureLook(term: "xterm-256color", colors: 1 << 24, theme: paper)
        #expect(look.backdrop?.background == 0xF4ECD8)
        let cells = PictureRenderer.cells(for: try Self.lineArt(), width: 48, height: 12, look: look)
        #expect(Self.visibleInk(cells, theme: paper, colors: 1 << 24) >= 2 * cells.width)
        // Between the lines: the page's own colour, not a card of another colour.
        let blanks = cells.cells.filter { $0.text == " " }
        #expect(!blanks.isEmpty)
        #expect(blanks.allSatisfy { cell in cell.background.map { Self.contrast(Self.rgb($0), 0xF4ECD8) < 1.1 } ?? true })
    }

    @Test func opaquePicturesAreNotChangedByTheBackdrop() {
        let plain = PictureRenderer.cells(for: ChafaRendererTests.redBlue, width: 40, height: 20, look: PictureLook(mode: .truecolor))
        let onNight = PictureRenderer.cells(for: ChafaRendererTests.redBlue, width: 40, height: 20,
                                            look: PictureLook(mode: .truecolor, backdrop: PictureBackdrop(background: 0x0C0E1C, paper: 0xC8CCE8)))
        #expect(plain == onNight)
    }

    @Test func theCacheKeepsOneRenderPerBackdrop() async throws {
        let cache = PictureCache()
        let path = try AssetPath(validating: "assets/images/line-art.png")
        let art = try Self.lineArt()
        let dark = PictureLook(mode: .truecolor, backdrop: PictureBackdrop(background: 0x0C0E1C, paper: 0xC8CCE8))
        let light = PictureLook(mode: .truecolor, backdrop: PictureBackdrop(background: 0xF4ECD8, paper: 0x2B2620))
        let onDark = await cache.cells(for: art, key: PictureCache.Key(path: path, width: 48, height: 12, look: dark))
        let onLight = await cache.cells(for: art, key: PictureCache.Key(path: path, width: 48, height: 12, look: light))
        #expect(await cache.renderCount == 2)
        #expect(onDark != onLight)
    }
}
