import PajamaModel
import PajamaImage
import Testing

@testable import PajamaTerminal

/// A picture whose final render is slow (256 colours: chafa matches colours in DIN99d) shows first as a
/// quick draft (RGB matching), replaced by its final cells when they arrive; a page left before they did
/// asks for them again.
@MainActor @Suite struct PictureDraftTests {
    let image = ChafaRendererTests.redBlue
    func key(_ width: Int, _ height: Int, _ mode: PictureColorMode = .indexed256) -> PictureCache.Key {
        RedBluePicture.key(width, height, mode)
    }

    @Test func aDraftIsMadeOnlyWhileTheFinalCellsAreNotCachedAndIsNotKept() async {
        let cache = PictureCache()
        let draft = await cache.draft(for: image, key: key(40, 20))
        let final = await cache.cells(for: image, key: key(40, 20))
        #expect(draft?.width == final.width && draft?.height == final.height)
        let (drafts, renders, kept) = (await cache.draftCount, await cache.renderCount, await cache.count)
        #expect(drafts == 1 && renders == 1 && kept == 1)
        #expect(await cache.cached(key(40, 20)) == final)
        // The final cells are cached: no draft.
        #expect(await cache.draft(for: image, key: key(40, 20)) == nil)
        // Only at 256 colours is a draft quicker; text art never needs one.
        #expect(await cache.draft(for: image, key: key(40, 20, .truecolor)) == nil)
        #expect(await cache.draft(for: image, key: key(40, 20, .indexed16)) == nil)
        #expect(await cache.draft(for: .textArt(lines: ["@@"]), key: key(10, 2)) == nil)
        #expect(await cache.draftCount == 1)
        // A cache given its own renderer drafts only when told how.
        let plain = PictureCache { _, width, height, _ in PictureCells(width: width, rows: Array(repeating: [], count: height)) }
        #expect(await plain.draft(for: image, key: key(4, 2)) == nil)
    }

    @Test func theDraftIsShownUntilTheFinalCellsArriveAndAskedAgainIfTheyNeverDid() throws {
        let a = try AssetPath(validating: "assets/images/a.png")
        let beat = Beat(id: "pics", pages: [
            Page(id: "one", kind: .text(lines: ["With a picture."]), imageUrl: a),
            Page(id: "two", kind: .text(lines: ["No picture."])),
        ])
        var h = PresenterHarness()
        h.show(.page(Fixture.page(beat, 0)))
        h.handle(.pictureLoaded(a, .textArt(lines: ["@@@@"])))
        _ = h.frame()
        guard case .requestPicture(let key, _) = try #require(h.renderEffects.first) else {
            Issue.record("expected a render request, got \(h.renderEffects)")
            return
        }
        func cells(_ text: String) -> PictureCells {
            PictureCells(width: 4, rows: [Array(repeating: PictureCells.Cell(text: text), count: 4)])
        }
        h.handle(.pictureDraft(key, cells("d")))
        #expect(h.text().contains("dddd"))
        h.handle(.pictureCells(key, cells("F")))
        #expect(h.text().contains("FFFF") && !h.text().contains("dddd"))
        // A draft late for cells already shown changes nothing.
        #expect(h.handle(.pictureDraft(key, cells("d"))) == [] && h.text().contains("FFFF"))

        // Leave while only the draft is shown (the final render's task is cancelled), then come back.
        var other = PresenterHarness()
        other.show(.page(Fixture.page(beat, 0)))
        other.handle(.pictureLoaded(a, .textArt(lines: ["@@@@"])))
        _ = other.frame()
        other.handle(.pictureDraft(key, cells("d")))
        #expect(other.text().contains("dddd"))
        other.show(.page(Fixture.page(beat, 1)))
        _ = other.frame()
        other.show(.page(Fixture.page(beat, 0)))
        _ = other.frame()
        guard case .requestPicture(let again, _) = try #require(other.renderEffects.first) else {
            Issue.record("the final cells were not asked for again: \(other.renderEffects)")
            return
        }
        #expect(again == key)
        other.handle(.pictureCells(key, cells("F")))
        #expect(other.text().contains("FFFF"))
    }
}
