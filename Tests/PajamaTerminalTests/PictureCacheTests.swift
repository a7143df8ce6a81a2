import Foundation
import PajamaModel
import PajamaImage
import Testing
@testable import PajamaTerminal

@Suite struct PictureCacheTests {
    let image = ChafaRendererTests.redBlue
    func key(_ width: Int, _ height: Int, _ mode: PictureColorMode = .indexed256) -> PictureCache.Key {
        RedBluePicture.key(width, height, mode)
    }

    @Test func sameKeySameCellsNewSizeRendersAgain() async {
        let cache = PictureCache()
        let first = await cache.cells(for: image, key: key(40, 20))
        #expect(await cache.renderCount == 1)
        #expect(await cache.cached(key(40, 20)) == first)
        #expect(await cache.cells(for: image, key: key(40, 20)) == first)
        #expect(await cache.renderCount == 1)
        #expect(await cache.cached(key(20, 10)) == nil)

        let smaller = await cache.cells(for: image, key: key(20, 10))
        #expect(await cache.renderCount == 2)
        #expect(smaller.width == 20 && smaller.height == 5 && first.width == 40)
        // The colour mode is part of the key too.
        let truecolor = await cache.cells(for: image, key: key(40, 20, .truecolor))
        #expect(await cache.renderCount == 3)
        #expect(truecolor != first)
    }

    @Test func keepsOnlyTheMostRecentlyUsed() async {
        let renders = Locked<[Int]>([])
        let cache = PictureCache(capacity: 2) { _, width, height, _ in
            renders.withLock { $0.append(width) }
            return PictureCells(width: width, rows: Array(repeating: [PictureCells.Cell(text: "x")], count: height))
        }
        _ = await cache.cells(for: image, key: key(10, 1))
        _ = await cache.cells(for: image, key: key(20, 1))
        _ = await cache.cached(key(10, 1))  // 10 is now more recent than 20
        _ = await cache.cells(for: image, key: key(30, 1))  // evicts 20
        #expect(await cache.count == 2)
        #expect(await cache.cached(key(10, 1)) != nil)
        #expect(await cache.cached(key(20, 1)) == nil)
        _ = await cache.cells(for: image, key: key(20, 1))
        #expect(renders.withLock { $0 } == [10, 20, 30, 20])
    }

    @Test func rendersOffTheMainActor() async {
        let onMain = Locked<Bool?>(nil)
        let cache = PictureCache { _, width, height, _ in
            onMain.withLock { $0 = Thread.isMainThread }
            return PictureCells(width: width, rows: Array(repeating: [], count: height))
        }
        await Self.askFromMain(cache, image: image, key: key(4, 2))
        #expect(onMain.withLock { $0 } == false)
    }

    @MainActor
    static func askFromMain(_ cache: PictureCache, image: StoryImage, key: PictureCache.Key) async {
        _ = await cache.cells(for: image, key: key)
    }
}
