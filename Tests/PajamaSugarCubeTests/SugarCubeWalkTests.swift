import Foundation
import PajamaModel
import PajamaTestSupport
import Testing
@testable import PajamaSugarCubeBridge

/// The differential test against SugarCube's own engine (docs/sugarcube.md, "Agreement with SugarCube"): each
/// walk recorded in Chromium by scripts/sugarcube-walks.py (`Tests/Fixtures/sugarcube-walks`) is read again in
/// Pajama through the story source, as the reader reads it, taking at each page the link SugarCube's reader
/// took (by its label, the n-th of equal labels for the n-th); each page's words and offered labels are
/// compared (`SugarCubeWalkText`). It prints how many walks are identical and, for each other walk, its first
/// differing page; it fails when fewer are identical than `identicalFloor` (raised as fixes land, never
/// lowered). The stories are the corpus's (`SugarCubeCorpusTests.corpus`): the test fails, never skips, without it.
@Suite struct SugarCubeWalkTests {
    /// The identical walks measured when the last fix landed.
    static let identicalFloor = 83

    static var walks: URL { PackagePaths.root.appendingPathComponent("Tests/Fixtures/sugarcube-walks") }

    struct Difference: CustomStringConvertible {
        var walk: String
        var step: Int
        var passage: String
        var what: String
        var expected: String
        var got: String
        var description: String {
            "\(walk), page \(step + 1) (passage \"\(passage)\"): \(what) differ\n    SugarCube: \(expected)\n    Pajama:    \(got)"
        }
    }

    @Test func pajamaShowsTheRecordedWalksAsSugarCubeDoes() async throws {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: Self.walks.path)) ?? []
        let files = names.filter { $0.hasSuffix(".json") }.sorted()
        #expect(files.count >= 100, "no recorded SugarCube walks at \(Self.walks.path)")
        var differences: [Difference] = []
        for file in files {
            let walk = try SugarCubeWalk.read(Self.walks.appendingPathComponent(file))
            if let difference = await Self.replay(walk) { differences.append(difference) }
        }
        let identical = files.count - differences.count
        // Piped, the test's output loses what passes about 16 KB: it shows each story's first differing walk,
        // SUGARCUBE_WALK_REPORT=FILE gets every one.
        let summary = "SugarCube walks identical in Pajama: \(identical) of \(files.count)"
        if let path = ProcessInfo.processInfo.environment["SUGARCUBE_WALK_REPORT"] {
            try ([summary] + differences.map(\.description)).joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        }
        var stories: Set<String> = []
        let firsts = differences.filter { stories.insert(String($0.walk.prefix { $0 != " " })).inserted }
        print(([summary, "The first differing walk of each story (SUGARCUBE_WALK_REPORT=FILE writes all):"] + firsts.map(\.description)).joined(separator: "\n"))
        #expect(identical >= Self.identicalFloor, "\(identical) of \(files.count) walks identical, fewer than the \(Self.identicalFloor) measured before")
    }

    /// Reads `walk` in Pajama; the first page that differs, nil when none does.
    static func replay(_ walk: SugarCubeWalk) async -> Difference? {
        let name = "\(walk.story) seed \(walk.seed)"
        let folder = SugarCubeCorpusTests.corpus.appendingPathComponent(walk.story).path
        guard let source = SugarCubeStorySource.local(folder, seed: walk.seed) else {
            return Difference(walk: name, step: 0, passage: "", what: "the story", expected: "a SugarCube story at \(folder)", got: "none")
        }
        var beatId = SugarCubeBeatMaker.startBeatId
        var before: [String]?
        for (index, step) in walk.steps.enumerated() {
            // SugarCube's page with its input fields untouched is Pajama's beat, each question answered with
            // what an untouched field holds (its default: the question's test answer), and the beats after.
            var beat: Beat
            var texts: [String] = []
            var labels: [String] = []
            repeat {
                do {
                    guard let made = try await source.madeBeat(beatId) else {
                        return Difference(walk: name, step: index, passage: step.passage ?? "", what: "the beat", expected: "a page", got: "no beat \(beatId)")
                    }
                    beat = made
                } catch {
                    return Difference(walk: name, step: index, passage: step.passage ?? "", what: "the beat", expected: "a page", got: "\(error)")
                }
                let page = SugarCubeWalkText.page(of: beat)
                texts.append(page.text)
                labels = page.labels
                guard let question = beat.pages.last?.question else { break }
                beatId = question.beatId(answering: question.automaticAnswer)
            } while texts.count <= 20
            let reached = await source.partsReached(by: beat).first ?? ""
            let passage = step.passage ?? reached
            let text = texts.joined(separator: "\n")
            let expected = SugarCubeWalkText.words(SugarCubeWalkText.maskingErrors(step.text, errors: step.errors), labels: step.links)
            let got = SugarCubeWalkText.words(SugarCubeWalkText.maskingErrors(pajama: text), labels: labels)
            var same = got == expected
            if !same, step.samePassage, let before, index > 0, let chosen = walk.steps[index - 1].chosen {
                // After a click that stayed in the passage, Pajama's beat is the whole page again or the words it added.
                let added = SugarCubeWalkText.added(before, expected)
                let clicked = SugarCubeWalkText.label(walk.steps[index - 1].links[chosen]).split(separator: " ").map(String.init)
                same = got == added || got == clicked + added
            }
            if !same {
                let (sugarCube, pajama) = SugarCubeWalkText.firstDifference(expected, got)
                return Difference(walk: name, step: index, passage: passage, what: "words", expected: sugarCube, got: pajama)
            }
            let expectedLabels = step.links.map(SugarCubeWalkText.label)
            let gotLabels = labels.map(SugarCubeWalkText.label)
            if expectedLabels.sorted() != gotLabels.sorted() {
                return Difference(walk: name, step: index, passage: passage, what: "links",
                                  expected: expectedLabels.joined(separator: " | "), got: gotLabels.joined(separator: " | "))
            }
            guard let chosen = step.chosen else { return nil }
            let wanted = expectedLabels[chosen]
            let nth = expectedLabels[..<chosen].filter { $0 == wanted }.count
            let choices = beat.pages.last.flatMap { page -> [Choice]? in if case .choice(_, let choices) = page.kind { choices } else { nil } } ?? []
            let matching = choices.filter { SugarCubeWalkText.label($0.text) == wanted }
            guard matching.indices.contains(nth) else {
                return Difference(walk: name, step: index, passage: passage, what: "links", expected: wanted, got: "no such choice")
            }
            beatId = matching[nth].targetBeatId
            before = expected
        }
        return nil
    }
}
