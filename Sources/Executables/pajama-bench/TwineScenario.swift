import Foundation
import PajamaLoading
import PajamaTestSupport
import PajamaTwine
import PajamaTwineBridge

/// `twine`: a Twine story in Harlowe (issue 30, docs/twine.md): a published HTML file of about 1 MB (generated:
/// passages of prose with variables, conditions, random choices and two links each, escaped as Twine
/// publishes them) opened to its first page; one passage's evaluation (a link taken: the runtime's moment,
/// without paging), over 2,000 passages; and `pajama play` of 500 links on the same story.
struct TwineScenario: Scenario {
    let name = "twine"
    let summary = "1 MB published Twine HTML to the first page; a passage's evaluation; pajama play of 500 links"

    static let links = 500

    /// A published Harlowe story of about `bytes`.
    static func html(bytes: Int) -> String {
        var passages: [String] = []
        var size = 0
        var index = 1
        while size < bytes {
            let next = index + 1
            let text = """
                ''Room \(index)''. The corridor bends here; dust lies on the floor and a draught comes from somewhere ahead. \
                (set: $steps to it + 1)(set: _mood to (either: "calm", "uneasy", "curious"))You feel _mood. \
                (if: $steps > 3)[You have walked $steps rooms.](else:)[You have only just begun.] \
                A painting of a ship hangs crooked; //someone// left a note: (print: "room " + (str: \(index))).
                |door>[The door is shut.] (link: "Knock")[(replace: ?door)[It opens.]]
                [[On->P\(next)]]
                [[Back->P\(max(1, index - 1))]]
                """
            let escaped = text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "'", with: "&#39;")
            let passage = "<tw-passagedata pid=\"\(index)\" name=\"P\(index)\" tags=\"\" position=\"\(index * 10),100\" size=\"100,100\">\(escaped)</tw-passagedata>"
            passages.append(passage)
            size += passage.utf8.count
            index += 1
        }
        passages.append("<tw-passagedata pid=\"\(index)\" name=\"P\(index)\" tags=\"\">The last room. [[Start again->P1]]</tw-passagedata>")
        return "<!DOCTYPE html><html><head><title>Bench</title></head><body><tw-storydata name=\"Bench\" startnode=\"1\" "
            + "format=\"Harlowe\" format-version=\"3.3.9\" ifid=\"00000000-0000-0000-0000-000000000030\" hidden>"
            + passages.joined(separator: "\n") + "</tw-storydata></body></html>\n"
    }

    func run(_ options: BenchOptions) async throws -> [BenchRow] {
        let folder = try TemporaryDirectory(prefix: "pajama-bench-twine")
        defer { folder.remove() }
        let text = Self.html(bytes: 1_000_000)
        let file = try folder.write("story.html", text)
        let size = "\(text.utf8.count / 1024) KB"

        // Opening: the source made, the file read and parsed, story.json and the first beat made.
        var failure: String?
        var opens: [Double] = []
        for round in 0..<(options.iterations(20) + 2) {
            let started = now()
            let source = TwineStorySource(base: FolderStorySource(folder: folder.path), files: ["story.html"], seed: 7)
            do {
                _ = try await source.read("story.json")
                guard try await source.madeBeat("start")?.pages.count ?? 0 >= 2 else { failure = "no first page"; break }
            } catch {
                failure = "\(error)"
                break
            }
            if round >= 2 { opens.append(now() - started) }
        }
        if let failure { throw ScenarioFailure(description: "opening the Twine story failed: \(failure)") }
        let open = Statistics(opens)

        // A passage's evaluation: the runtime alone, link 1 ("On") over 2,000 passages.
        let story = try TwineFileKind.parse(text)
        let runtime = HarloweRuntime(story: story, seed: 7)
        _ = runtime.start()
        var evaluations: [Double] = []
        for _ in 0..<2_000 {
            let started = now()
            let moment = try runtime.choose(1)  // (link: "Knock") is link 0; "On" is link 1
            evaluations.append(now() - started)
            if let error = moment.error { throw ScenarioFailure(description: "passage \(moment.passage) stopped: \(error)") }
            if moment.links.count < 2 { _ = runtime.start() }  // the last room: from the first again
        }
        let evaluation = Statistics(evaluations)

        // `pajama play`, the real binary.
        let play = try PlayRuns.untilChoicesRunOut(file: file.path, home: folder.path, choice: 2, count: Self.links, iterations: options.iterations(3))
        let playStats = Statistics(play)
        return [
            BenchRow(scenario: name, name: "\(size) published HTML to the first page", unit: .seconds, stats: open,
                     target: "median < 50 ms", met: open.median < 0.05, note: "read, parse, story.json, the first passage paged (in process)"),
            BenchRow(scenario: name, name: "passage evaluation", unit: .seconds, stats: evaluation,
                     target: "p99 < 1 ms", met: evaluation.p99 < 0.001, note: "a link taken: set, either, if/else, print, a named hook, (link:), two links"),
            BenchRow(scenario: name, name: "play \(Self.links) links, \(size) story", unit: .seconds, stats: playStats,
                     note: "pajama play, process start to exit, transcript to /dev/null"),
        ]
    }
}
