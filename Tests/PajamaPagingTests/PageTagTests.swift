import PajamaPaging
import Testing

/// Inky's web-export tags and Pajama's own, as `PageTag` reads them (docs/ink.md, "Tags").
@Suite struct PageTagTests {
    @Test func inkysTagsAreReadWhateverTheirCase() {
        #expect(PageTag("IMAGE: images/a.png") == .image("images/a.png"))
        #expect(PageTag(" Image :images/a.png ") == .image("images/a.png"))
        #expect(PageTag("AUDIO: sounds/bell.ogg") == .sound("sounds/bell.ogg"))
        #expect(PageTag("AUDIOLOOP: sounds/rain.ogg") == .loop("sounds/rain.ogg"))
        #expect(PageTag("audioloop: none") == .loop(nil))
        #expect(PageTag("AUDIOLOOP: NONE") == .loop(nil))
        #expect(PageTag("BACKGROUND: images/sky.png") == .background("images/sky.png"))
        #expect(PageTag("background: None") == .background(nil))
        #expect(PageTag("CLASS: dim") == .styleClass("dim"))
        #expect(PageTag("CLEAR") == .page)
        #expect(PageTag("clear") == .page)
        #expect(PageTag("RESTART") == .restart)
        #expect(PageTag("title: A <b>Web</b> Story") == .title("A <b>Web</b> Story"))
        #expect(PageTag("AUTHOR: Someone") == .author("Someone"))
        #expect(PageTag("theme: Dark") == .theme("dark"))
        #expect(PageTag("theme: light") == .theme("light"))
    }

    @Test func pajamasOwnTagsKeepTheirMeaning() {
        #expect(PageTag("image: images/a.png") == .image("images/a.png"))
        #expect(PageTag("sound: s.wav") == .sound("s.wav"))
        #expect(PageTag("tap_sound: t.wav") == .tapSound("t.wav"))
        #expect(PageTag("critical") == .critical)
        #expect(PageTag("page") == .page)
        #expect(PageTag("mood: grey") == .other("mood: grey"))
        // A tag that needs a value and has none is not that tag.
        #expect(PageTag("CLEAR: x") == .other("CLEAR: x"))
        #expect(PageTag("RESTART: now") == .other("RESTART: now"))
        #expect(PageTag("CLASS") == .other("CLASS"))
    }

    @Test func theAssetsTagsName() {
        #expect(PageTag("IMAGE: a.png").asset! == ("image", "a.png"))
        #expect(PageTag("AUDIO: a.ogg").asset! == ("sound", "a.ogg"))
        #expect(PageTag("AUDIOLOOP: a.ogg").asset! == ("audioloop", "a.ogg"))
        #expect(PageTag("BACKGROUND: b.png").asset! == ("background", "b.png"))
        #expect(PageTag("AUDIOLOOP: none").asset == nil)
        #expect(PageTag("BACKGROUND: none").asset == nil)
        #expect(PageTag("BACKGROUND: b.png").namesPicture)
        #expect(!PageTag("AUDIOLOOP: a.ogg").namesPicture)
        // An empty path is still the tag, so the reader says what is wrong with it.
        #expect(PageTag("IMAGE:") == .image(""))
    }
}
