import Foundation
import PajamaTestSupport
import Testing
@testable import PajamaTwineBridge

/// A Twine picture's `<img alt>` is its page's alt text (issue 35 item 8): what plain mode prints in its
/// place and screen readers say, instead of its file's name.
@Suite struct TwineAltTextTests {
    @Test func anImgAltIsThePagesAltText() async throws {
        let directory = try TemporaryDirectory(prefix: "pajama-twine-alt")
        defer { directory.remove() }
        try directory.write("harbour.twee", """
            :: StoryTitle
            Harbour

            :: StoryData
            {"ifid": "5C1D2F0A-7E3B-4B8C-9D11-2A6F0E4B7C21", "format": "Harlowe", "format-version": "3.3.8", "start": "Quay"}

            :: Quay
            <img src="pictures/quay.png" alt="Boats tied up at a stone quay at dawn">The boats knock together.
            <img src="pictures/gull.png">A gull watches.
            """)
        let source = try #require(TwineStorySource.local(directory.path, seed: 1))
        let beat = try #require(try await source.madeBeat("start"))
        let quay = try #require(beat.pages.first { $0.imageUrl?.value == "pictures/quay.png" })
        #expect(quay.imageAlt == "Boats tied up at a stone quay at dawn")
        #expect(quay.pictureDescription == "Boats tied up at a stone quay at dawn")
        let gull = try #require(beat.pages.first { $0.imageUrl?.value == "pictures/gull.png" })
        #expect(gull.imageAlt == nil)
    }
}
