import Foundation
import PajamaImage
import PajamaTestSupport
import Testing

@testable import PajamaTerminal

/// Every role of every bundled theme is readable: at least WCAG's 4.5:1 between its text colour and the
/// background it is drawn on, dim text included (it carries the end screen's key hints), in true colour and
/// as a 256-colour terminal shows the colours.
@Suite struct ThemeContrastTests {
    static let folder = PackagePaths.root.appendingPathComponent("Themes")
    static let names = ThemeLibrary.names(in: [folder])

    @Test func theBundledThemesAreAllHere() {
        #expect(Self.names == ["default", "mono", "night", "paper"])
    }

    @Test(arguments: names)
    func everyRoleHasAtLeastFourAndAHalfToOne(_ name: String) throws {
        let theme = try #require(ThemeLibrary.load(name, paths: [Self.folder]))
        for colors in [1 << 24, 256] {
            let mapper = ColorMapper(colors: colors)
            func shown(_ rgb: UInt32) -> UInt32 { colors >= 1 << 24 ? rgb : ColorMapper.rgb(ofPaletteIndex: mapper.number(rgb: rgb)) }
            for role in StyleRole.allCases {
                guard let fg = theme.shownColor(of: role, background: false, colors: colors) else { continue }  // the terminal's own
                let bg = theme.shownColor(of: role, background: true, colors: colors) ?? theme.shownColor(of: .text, background: true, colors: colors)
                    ?? Theme.assumedTerminalBackground
                let ratio = AlphaCompositing.contrast(shown(fg), shown(bg))
                #expect(ratio >= 4.5, "\(name): \(role) at \(colors) colours is \(String(format: "%.2f", ratio)):1")
            }
        }
    }
}
