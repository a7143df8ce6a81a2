import Foundation
import PajamaModel
import Testing
@testable import PajamaTwineBridge

/// The differential test against Harlowe's own engine (docs/twine.md, "Agreement with Harlowe"): each walk
/// recorded in Chromium (`../shared/corpora/harlowe/walks`, beside the corpus `TwineCorpusTests` reads; CI has it,
/// and the test fails, never skips, without it) is read again in Pajama, taking at each page the link Harlowe's
/// reader took (by its label, the n-th of equal labels for the n-th), and each page's words and offered labels
/// are compared (`HarloweWalkText`). It prints how many walks are identical and, for each other walk, its first
/// differing page; it fails when fewer are identical than `identicalFloor` (raised as fixes land, never lowered).
@Suite struct HarloweWalkTests {
    /// The identical walks measured when the last fix landed.
    static let identicalFloor = 60

    static var walks: URL { TwineCorpusTests.corpus.appendingPathComponent("walks") }

    /// Where a walk first differs.
    struct Difference: CustomStringConvertible {
        var walk: String
        var step: Int
        var passage: String
        var what: String
        var expected: String
        var got: String
        var description: String {
            "\(walk), page \(step + 1) (passage \"\(passage)\"): \(what) differ\n    Harlowe: \(expected)\n    Pajama:  \(got)"
        }
    }

    @Test func pajamaShowsTheRecordedWalksAsHarloweDoes() async throws {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: Self.walks.path)) ?? []
        let files = names.filter { $0.hasSuffix(".json") }.sorted()
        #expect(files.count >= 60, "no recorded Harlowe walks at \(Self.walks.path): CI has them as ../shared/corpora/harlowe/walks; set TWINE_CORPUS_DIR")
        var differences: [Difference] = []
        for file in files {
            let walk = try HarloweWalk.read(Self.walks.appendingPathComponent(file))
            if let difference = await Self.replay(walk) { differences.append(difference) }
        }
        let identical = files.count - differences.count
        print("Harlowe walks identical in Pajama: \(identical) of \(files.count)")
        for difference in differences { print(difference) }
        #expect(identical >= Self.identicalFloor, "\(identical) of \(files.count) walks identical, fewer than the \(Self.identicalFloor) measured before")
    }

    /// Reads `walk` in Pajama; the first page that differs, nil when none does.
    static func replay(_ walk: HarloweWalk) async -> Difference? {
        let name = "\(walk.story) seed \(walk.seed)"
        let folder = TwineCorpusTests.corpus.appendingPathComponent(walk.story).path
        guard let source = TwineStorySource.local(folder, seed: walk.seed) else {
            return Difference(walk: name, step: 0, passage: "", what: "the story", expected: "a Twine story at \(folder)", got: "none")
        }
        var beatId = TwineBeatMaker.startBeatId
        var before: [String]?
        for (index, step) in walk.steps.enumerated() {
            let beat: Beat
            do {
                guard let made = try await source.madeBeat(beatId) else {
                    return Difference(walk: name, step: index, passage: "", what: "the beat", expected: "a page", got: "no beat \(beatId)")
                }
                beat = made
            } catch {
                return Difference(walk: name, step: index, passage: "", what: "the beat", expected: "a page", got: "\(error)")
            }
            let passage = await source.partsReached(by: beat).first ?? ""
            let (text, labels) = HarloweWalkText.page(of: beat)
            let expected = HarloweWalkText.words(step.text, labels: step.links)
            let got = HarloweWalkText.words(text, labels: labels)
            var same = got == expected
            if !same, step.samePassage, let before, index > 0, let chosen = walk.steps[index - 1].chosen {
                // After a click that revealed a hook, Pajama's beat is the whole page again or the words it added.
                let added = HarloweWalkText.added(before, expected)
                let clicked = HarloweWalkText.label(walk.steps[index - 1].links[chosen]).split(separator: " ").map(String.init)
                same = got == added || got == clicked + added
            }
            if !same {
                let (harlowe, pajama) = HarloweWalkText.firstDifference(expected, got)
                return Difference(walk: name, step: index, passage: passage, what: "words", expected: harlowe, got: pajama)
            }
            let expectedLabels = step.links.map(HarloweWalkText.label)
            let gotLabels = labels.map(HarloweWalkText.label)
            if expectedLabels.sorted() != gotLabels.sorted() {
                return Difference(walk: name, step: index, passage: passage, what: "links",
                                  expected: expectedLabels.joined(separator: " | "), got: gotLabels.joined(separator: " | "))
            }
            guard let chosen = step.chosen else { return nil }
            let wanted = expectedLabels[chosen]
            let nth = expectedLabels[..<chosen].filter { $0 == wanted }.count
            let choices = beat.pages.last.flatMap { page -> [Choice]? in if case .choice(_, let choices) = page.kind { choices } else { nil } } ?? []
            let matching = choices.filter { HarloweWalkText.label($0.text) == wanted }
            guard matching.indices.contains(nth) else {
                return Difference(walk: name, step: index, passage: passage, what: "links", expected: wanted, got: "no such choice")
            }
            beatId = matching[nth].targetBeatId
            before = expected
        }
        return nil
    }
}
