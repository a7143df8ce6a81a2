import Foundation
import PajamaTerminal
import PajamaTestSupport
import Testing

/// The bad-input corpus for theme and settings files (issue 11, section 3). Neither has a message of
/// its own: a theme file that cannot be used is skipped (the next folder's theme of that name, else the
/// default theme, is used, silently), and unreadable settings are the defaults. What is checked: never
/// a crash or a hang, and the fallback.
@Suite struct ThemeAndSettingsCorpusTests {
    static let good = ##"{"name":"mine","roles":{"title":{"fg":"#ff0000","fg8":"red","bold":true}}}"##

    static let badThemes: [(String, [UInt8])] = [
        ("0 bytes", []),
        ("garbage", [0xFF, 0x00, 0x13, 0x37]),
        ("truncated", Array(good.utf8.prefix(20))),
        ("roles is an array", Array(#"{"name":"mine","roles":[]}"#.utf8)),
        ("bold is text", Array(good.replacingOccurrences(of: "true", with: "\"yes\"").utf8)),
        ("name missing", Array(#"{"roles":{}}"#.utf8)),
    ]

    @Test(arguments: badThemes.map(\.0))
    func aBadThemeFileIsSkippedForTheNextFolders(_ name: String) throws {
        let bytes = try #require(Self.badThemes.first { $0.0 == name }?.1)
        let first = try TemporaryDirectory(prefix: "pajama-theme-bad")
        let second = try TemporaryDirectory(prefix: "pajama-theme-good")
        defer { first.remove(); second.remove() }
        try first.write("mine.json", Data(bytes))
        #expect(ThemeLibrary.load("mine", paths: [first.url]) == nil)
        try second.write("mine.json", Self.good)
        let theme = try #require(ThemeLibrary.load("mine", paths: [first.url, second.url]))
        #expect(theme.style(.title).fg == "#ff0000")
    }

    @Test func unknownRolesAndColoursDoNotBreakATheme() throws {
        let theme = try Theme.decode(Data(##"{"name":"odd","roles":{"nosuch":{"fg":"#123456"},"title":{"fg":"not a colour","fg8":"mauve"}}}"##.utf8))
        #expect(theme.name == "odd")
        #expect(theme.style(.text) == Theme.builtIn.style(.text))
    }

    @Test func themeNamesThatLeaveTheFolderAreRefused() throws {
        let dir = try TemporaryDirectory(prefix: "pajama-theme-name")
        defer { dir.remove() }
        try dir.write("inside/x.json", Self.good)
        #expect(ThemeLibrary.load("../x", paths: [dir.url.appendingPathComponent("inside")]) == nil)
        #expect(ThemeLibrary.load("inside/x", paths: [dir.url]) == nil)
        #expect(ThemeLibrary.load(".hidden", paths: [dir.url]) == nil)
    }

    @Test(arguments: ["", "{", "[]", #"{"theme":7}"#, "\u{FF}"])
    func unreadableSettingsAreTheDefaults(_ text: String) throws {
        let dir = try TemporaryDirectory(prefix: "pajama-settings")
        defer { dir.remove() }
        let url = try dir.write("reader.json", text)
        #expect(ReaderSettings.load(from: url) == ReaderSettings())
    }

    /// Found by fuzz-settings: settings were read with `Data(contentsOf:)`, without a limit (and leaking a
    /// buffer on every empty file); now they are read like progress, at most 64 KB, as are themes.
    @Test func settingsAndThemesOverTheSizeLimitAreNotRead() throws {
        let dir = try TemporaryDirectory(prefix: "pajama-settings-big")
        defer { dir.remove() }
        let padding = String(repeating: " ", count: 70_000)
        let settings = try dir.write("reader.json", #"{"theme":"night"}"# + padding)
        #expect(ReaderSettings.load(from: settings) == ReaderSettings())
        try dir.write("big.json", Self.good + padding)
        #expect(ThemeLibrary.load("big", paths: [dir.url]) == nil)
        try dir.write("small.json", Self.good)
        #expect(ThemeLibrary.load("small", paths: [dir.url])?.name == "mine")
    }

    @Test func aFolderOrAPipeInPlaceOfTheSettingsIsTheDefaults() throws {
        let dir = try TemporaryDirectory(prefix: "pajama-settings")
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.path + "/folder.json", withIntermediateDirectories: true)
        #expect(ReaderSettings.load(from: dir.url.appendingPathComponent("folder.json")) == ReaderSettings())
        #expect(mkfifo(dir.path + "/pipe.json", 0o600) == 0)
        #expect(ReaderSettings.load(from: dir.url.appendingPathComponent("pipe.json")) == ReaderSettings())
    }
}
