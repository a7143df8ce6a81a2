import Foundation
import PajamaFormats
import PajamaStoryFormat
import PajamaJSON
import PajamaTestSupport
import Testing
@testable import PajamaStoryTest

/// `pajama test` on stories made for it: a package with an ending, a missing beat, a loop, a missing picture
/// and a beat no way reaches; an ink story that stops; a Twine story's endings (docs/testing.md).
@Suite struct StoryTestRunnerTests {
    /// start: 1 -> an ending, 2 -> a loop with no ending, 3 -> a beat that is not there, 4 -> a page whose
    /// picture is missing, then an ending. "island" is listed but nothing leads to it.
    static func maze() throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory(prefix: "pajama-story-test")
        func choice(_ text: String, _ target: String) -> String { #"{"text": "\#(text)", "targetBeatId": "\#(target)"}"# }
        func beat(_ id: String, _ pages: String, next: String? = nil) -> String {
            #"{"id": "\#(id)", "pages": [\#(pages)]\#(next.map { #", "nextBeatId": "\#($0)""# } ?? "")}"#
        }
        func text(_ id: String, _ line: String, image: String? = nil) -> String {
            #"{"id": "\#(id)", "type": "text", "lines": ["\#(line)"]\#(image.map { #", "imageUrl": "\#($0)""# } ?? "")}"#
        }
        func choices(_ id: String, _ list: [String]) -> String { #"{"id": "\#(id)", "type": "choice", "prompt": "Which?", "choices": [\#(list.joined(separator: ", "))]}"# }
        _ = try dir.write("story.json", #"""
            {"format": 1, "id": "maze", "title": "The Maze", "startBeatId": "start",
             "beats": ["start", "ending_a", "loop", "loop_back", "pic", "island"]}
            """#)
        _ = try dir.write("beats/start.json", beat("start", text("s1", "A hall.") + ", " + choices("c", [
            choice("Out", "ending_a"), choice("Round", "loop"), choice("Down", "dead"), choice("Look", "pic"),
        ])))
        _ = try dir.write("beats/ending_a.json", beat("ending_a", text("e1", "Out in the sun.")))
        _ = try dir.write("beats/loop.json", beat("loop", text("l1", "Round again."), next: "loop_back"))
        _ = try dir.write("beats/loop_back.json", beat("loop_back", choices("c", [choice("Again", "loop")])))
        _ = try dir.write("beats/pic.json", beat("pic", text("p1", "A picture.", image: "assets/images/missing.png")))
        _ = try dir.write("beats/island.json", beat("island", text("i1", "Nobody comes here.")))
        return dir
    }

    static func run(_ dir: TemporaryDirectory, _ options: StoryTestOptions) async throws -> StoryTestReport {
        let path = dir.path
        return try await StoryTestRunner(story: "maze", options: options) { await StorySources.open(path, seed: options.seed) }.run()
    }

    @Test func randomRunsFindEveryProblemWithTheChoicesThatReachIt() async throws {
        let dir = try Self.maze()
        defer { dir.remove() }
        let report = try await Self.run(dir, StoryTestOptions(runs: 200, seed: 1, maxSteps: 40))
        #expect(report.runs == 200)
        #expect(Set(report.endings.map(\.id)) == ["ending_a", "pic"])
        #expect(report.endings.map(\.count).reduce(0, +) < 200)  // the other runs met a problem
        let problems = Dictionary(grouping: report.problems, by: \.kind)
        #expect(problems[.unreadable]?.map(\.choices) == [[3]])
        #expect(problems[.unreadable]?.first?.message.contains("beats/dead.json") == true)
        #expect(problems[.unreadable]?.first?.replay == "pajama play maze --seed 1 --choices 3")
        #expect(problems[.noEnding]?.count == 1)
        #expect(problems[.noEnding]?.first?.choices.first == 2)
        #expect(problems[.missingAsset]?.map(\.message) == ["the picture assets/images/missing.png is not in the story"])
        #expect(problems[.missingAsset]?.first.map { ($0.beatId, $0.pageId, $0.choices) } ?? ("", nil, []) == ("pic", "p1", [4]))
        #expect(problems[.deadEnd] == nil && problems[.runtimeError] == nil)
        let beats = try #require(report.coverage.first { $0.kind == "beats" })
        #expect((beats.reached, beats.total, beats.unreached) == (5, 6, ["island"]))
        let pages = try #require(report.coverage.first { $0.kind == "pages" })
        #expect((pages.reached, pages.total, pages.unreached) == (6, 7, ["island/i1"]))
        #expect(!report.passed)
    }

    @Test func theReportIsTheSameWhateverTheJobs() async throws {
        let dir = try Self.maze()
        defer { dir.remove() }
        let one = try await Self.run(dir, StoryTestOptions(runs: 120, seed: 9, maxSteps: 25, jobs: 1))
        let three = try await Self.run(dir, StoryTestOptions(runs: 120, seed: 9, maxSteps: 25, jobs: 3))
        #expect(one == three)
        let other = try await Self.run(dir, StoryTestOptions(runs: 120, seed: 10, maxSteps: 25, jobs: 1))
        #expect(other.endings != one.endings || other.problems != one.problems)  // the seed chooses the ways
    }

    @Test func theExhaustiveWalkSeesEveryStateAndSaysWhenItStopped() async throws {
        let dir = try Self.maze()
        defer { dir.remove() }
        let all = try await Self.run(dir, StoryTestOptions(exhaustive: true))
        #expect(all.exhaustive == StoryTestReport.Exhaustive(states: 5, complete: true))
        #expect(all.endings.map(\.id) == ["ending_a", "pic"] && all.endings.allSatisfy { $0.count == 1 })
        #expect(all.problems.map(\.kind).contains(.unreadable))
        let few = try await Self.run(dir, StoryTestOptions(exhaustive: true, maxStates: 2))
        #expect(few.exhaustive == StoryTestReport.Exhaustive(states: 2, complete: false))
        #expect(few.summary.contains("stopped at --max-states"))
    }

    @Test func theReportAsTextJSONAndJUnit() async throws {
        let dir = try Self.maze()
        defer { dir.remove() }
        let report = try await Self.run(dir, StoryTestOptions(runs: 50, seed: 1, maxSteps: 20))
        #expect(report.summary.contains("The Maze: 50 random runs (seed 1)"))
        #expect(report.summary.contains("beats: 5 of 6 reached (83.3%); never reached: island"))
        #expect(report.summary.contains("      pajama play maze --seed 1 --choices 3"))
        let json = try JSONParser.parse(Array(try JSONValueEncoder.pretty.encodeString(report).utf8))
        #expect(json["coverage"]?.arrayValue?.first?["percent"] == .double(83.3))
        #expect(json["problems"]?.arrayValue?.contains { $0["kind"]?.stringValue == "missing-asset" } == true)
        #expect(json["endings"]?.arrayValue?.isEmpty == false)
        let xml = report.junit
        #expect(xml.contains(#"<testsuite name="pajama test maze" tests="6" failures="3" errors="0">"#))
        #expect(xml.contains(#"<testcase classname="maze" name="reaches an ending"></testcase>"#))
        #expect(xml.contains(#"<failure message="beat &quot;pic&quot;, page &quot;p1&quot;: the picture assets/images/missing.png is not in the story">pajama play maze --seed 1 --choices 4</failure>"#))
        #expect(StoryTestReport.escaped("a<b>&\"'\u{1}") == "a&lt;b&gt;&amp;&quot;&apos; ")
    }

    @Test func aStoryThatStopsIsARuntimeErrorAndOneWithoutAStartCannotBeTested() async throws {
        let dir = try TemporaryDirectory(prefix: "pajama-story-test-ink")
        defer { dir.remove() }
        // A knot without -> DONE: ink's "ran out of content" error after its lines.
        _ = try dir.write("story.ink.json", ##"{"inkVersion":21,"root":[[{"->":"k"},["done",{"#n":"g-0"}],null],"done",{"k":["^First words.","\n","^Last words.","\n",null]}],"listDefs":{}}"##)
        let path = dir.path + "/story.ink.json"
        let report = try await StoryTestRunner(story: path, options: StoryTestOptions(runs: 3)) { await StorySources.open(path) }.run()
        #expect(report.problems.map(\.kind) == [.runtimeError])
        #expect(report.problems.first?.message.contains("ran out of content") == true)
        #expect(report.endings.isEmpty && !report.passed)

        let empty = try TemporaryDirectory(prefix: "pajama-story-test-none")
        defer { empty.remove() }
        let none = empty.path
        await #expect(throws: StoryTestRunner.Unreadable.self) {
            try await StoryTestRunner(story: none, options: StoryTestOptions(runs: 1)) { await StorySources.open(none) }.run()
        }
    }

    /// A problem met after a question page is replayed with the answers typed on the way (`--answers`, quoted
    /// for the shell; a comma in an answer as `\,`), as `pajama test` typed them (ChoiceScript: randomtest's).
    @Test func aReplayAfterAQuestionCarriesTheAnswersTyped() async throws {
        let dir = try TemporaryDirectory(prefix: "pajama-storytest-answers")
        defer { dir.remove() }
        _ = try dir.write("game/scenes/startup.txt", """
            *create name ""
            What is your name?
            *input_text name
            *choice
              #Go on, ${name}.
                *bug the road ends for ${name}
              #Stop.
                *ending
            """)
        let path = dir.path + "/game"
        let report = try await StoryTestRunner(story: path, options: StoryTestOptions(runs: 20, seed: 3)) { await StorySources.open(path, seed: 3) }.run()
        let problem = try #require(report.problems.first { $0.kind == .runtimeError }, "\(report.summary)")
        #expect(problem.message.contains("the road ends for blah blah"))
        #expect(problem.replay == "pajama play \(StoryTestRunner.shellQuoted(path)) --seed 3 --choices 1 --answers 'blah blah'")
        let runner = StoryTestRunner(story: "game", options: StoryTestOptions(runs: 1)) { await StorySources.open(path) }
        #expect(runner.replay([2], answers: ["Ada, Queen", "it's"]) == #"pajama play game --choices 2 --answers 'Ada\, Queen,it'\''s'"#)
    }

    @Test func aTwineStorysEndingsAreNamedByTheirLastLine() async throws {
        let dir = try TemporaryDirectory(prefix: "pajama-story-test-twine")
        defer { dir.remove() }
        _ = try dir.write("shore.twee", """
            :: StoryData
            {"ifid": "D674C58C-DEFA-4F70-B7A2-27742230C0AC", "format": "Harlowe", "format-version": "3.3.8", "start": "Shore"}

            :: Shore
            The sea.
            [[Swim->Sea]]
            [[Stay->Sand]]

            :: Sea
            The water is cold.

            :: Sand
            You build a castle.

            :: Cave
            Nobody comes here.

            :: Style [stylesheet]
            body { color: red; }
            """)
        let path = dir.path
        let report = try await StoryTestRunner(story: path, options: StoryTestOptions(runs: 40, jobs: 2)) { await StorySources.open(path) }.run()
        #expect(Set(report.endings.map(\.id)) == ["The water is cold.", "You build a castle."])
        #expect(report.coverage == [StoryTestReport.Coverage(kind: "passages", reached: 3, total: 4, unreached: ["Cave"])])
        #expect(report.passed, "\(report.summary)")
    }

    /// ink's knots and stitches, as the runtime enters them (a divert, a choice), whatever their visit counting.
    @Test func anInkStorysKnotsAndStitchesAreItsCoverage() async throws {
        let dir = try TemporaryDirectory(prefix: "pajama-story-test-knots")
        defer { dir.remove() }
        // -> harbour; harbour has a stitch "pier" reached by its own divert; "attic" is never reached.
        _ = try dir.write("story.ink.json", ##"""
            {"inkVersion":21,"root":[["^Start.","\n",{"->":"harbour"},["done",{"#n":"g-0"}],null],"done",{"harbour":[["^At the harbour.","\n",{"->":"harbour.pier"},null],{"pier":["^On the pier.","\n","end",null]}],"attic":["^Dust.","\n","end",null],"#f":1}],"listDefs":{}}
            """##)
        let path = dir.path + "/story.ink.json"
        let report = try await StoryTestRunner(story: path, options: StoryTestOptions(runs: 2)) { await StorySources.open(path) }.run()
        #expect(report.coverage == [StoryTestReport.Coverage(kind: "knots and stitches", reached: 2, total: 3, unreached: ["attic"])], "\(report.summary)")
        #expect(report.endings.map(\.id) == ["On the pier."])
    }

    /// Twine's links never offered: a `[[link]]` in a Harlowe hook whose `(if:)` is never true, and one under a
    /// SugarCube `<<if>>` clause never taken, are named with their passage and the condition; a link shown in
    /// some run (a condition the choice before sets) is not, and a link is its own passage's where another
    /// passage shows it (`(display:)`, `<<include>>`).
    @Test func aTwineLinkUnderAConditionNeverTrueIsNamed() async throws {
        let dir = try TemporaryDirectory(prefix: "pajama-story-test-twine-never")
        defer { dir.remove() }
        _ = try dir.write("harlowe/shore.twee", """
            :: StoryData
            {"ifid": "D674C58C-DEFA-4F70-B7A2-27742230C0AD", "format": "Harlowe", "format-version": "3.3.8", "start": "Shore"}

            :: Shore
            (set: $key to false)
            The sea. [[Left->Lucky]] [[Right->Beach]]

            :: Lucky
            (set: $lucky to true)(display: "Beach")

            :: Beach
            (if: $key)[ A door. [[Open the door->Vault]] ]
            (if: $lucky)[ [[Dig->Sand]] ](else:)[ [[Swim->Sea]] ]
            [[Stay->Sand]]

            :: Vault
            Gold.

            :: Sea
            The water is cold.

            :: Sand
            You build a castle.
            """)
        _ = try dir.write("sugarcube/shore.twee", """
            :: StoryData
            {"ifid": "D674C58C-DEFA-4F70-B7A2-27742230C0AE", "format": "SugarCube", "format-version": "2.36.1", "start": "Shore"}

            :: StoryInit
            <<set $key to false>><<set $lucky to false>>

            :: Shore
            The sea. [[Left|Lucky]] [[Right|Beach]]

            :: Lucky
            <<set $lucky to true>><<include "Beach">>

            :: Beach
            <<if $key>>[[Open the door|Vault]]<<elseif $lucky>>[[Dig|Sand]]<<else>>[[Swim|Sea]]<</if>>
            [[Stay|Sand]]

            :: Vault
            Gold.

            :: Sea
            The water is cold.

            :: Sand
            You build a castle.
            """)
        for (format, reason) in [("harlowe", "the (if:) hook it is in was never shown"), ("sugarcube", "the <<if $key>> it is under was never true")] {
            let path = dir.path + "/" + format
            let report = try await StoryTestRunner(story: path, options: StoryTestOptions(runs: 40, seed: 5, jobs: 2)) { await StorySources.open(path) }.run()
            #expect(report.neverOffered == [NeverOfferedChoice(choice: "Open the door", part: "passage \"Beach\", to \"Vault\"", reason: reason)],
                    "\(format): \(report.summary)")
            #expect(report.summary.contains("never offered: 1 choice"), "\(format): \(report.summary)")
        }
    }

    /// ink's choices never offered: one whose condition is never true is named with its knot and path; a
    /// once-only choice taken and later kept back was offered, so it is not.
    @Test func anInkChoiceWhoseConditionIsNeverTrueIsNamed() async throws {
        let dir = try TemporaryDirectory(prefix: "pajama-story-test-never")
        defer { dir.remove() }
        // door: "Fly away" only if false, "Knock" -> hall; hall: once-only "Look around" (back to hall), "Leave".
        _ = try dir.write("story.ink.json", ##"""
            {"inkVersion":21,"root":[[{"->":"door"},["done",{"#n":"g-0"}],null],"done",{"door":[["^A door.","\n","ev","str","^Fly away","/str",false,"/ev",{"*":".^.c-0","flg":21},"ev","str","^Knock","/str","/ev",{"*":".^.c-1","flg":20},{"c-0":["^You fly.","\n","end",{"#f":5}],"c-1":["^You knock.","\n",{"->":"hall"},{"#f":5}]}],null],"hall":[["^A hall.","\n","ev","str","^Look around","/str","/ev",{"*":".^.c-0","flg":20},"ev","str","^Leave","/str","/ev",{"*":".^.c-1","flg":20},{"c-0":["^Dust everywhere.","\n",{"->":"hall"},{"#f":5}],"c-1":["^Outside at last.","\n","end",{"#f":5}]}],null]}],"listDefs":{}}
            """##)
        let path = dir.path + "/story.ink.json"
        let report = try await StoryTestRunner(story: path, options: StoryTestOptions(runs: 40, seed: 3, jobs: 2)) { await StorySources.open(path) }.run()
        #expect(Set(report.endings.map(\.id)) == ["Outside at last."], "\(report.summary)")
        // Some run looked around and came back to the hall, where the once-only choice was kept back.
        #expect(report.coverage.first?.reached == 2, "\(report.summary)")
        #expect(report.neverOffered == [NeverOfferedChoice(choice: "Fly away", part: "door, at door.0.8", reason: "its condition was never true")],
                "\(report.summary)")
        #expect(report.summary.contains("never offered: 1 choice\n    \"Fly away\" (door, at door.0.8): its condition was never true"), "\(report.summary)")
    }

    /// ChoiceScript's lines, as the interpreter goes through them: a line in a branch never taken, an option never
    /// offered and its body are not reached (the conditions that kept them back are: they ran); a comment, a
    /// label and the scene list's data are not counted. The options never offered are said with their reason.
    @Test func aChoiceScriptGamesLinesAreItsCoverage() async throws {
        let dir = try TemporaryDirectory(prefix: "pajama-story-test-lines")
        defer { dir.remove() }
        _ = try dir.write("game/scenes/startup.txt", """
            *scene_list
              startup
              road
            *create lucky false
            *comment nothing to see
            A gate.
            *if lucky
              A coin on the ground.
            *choice
              *if (lucky) #Pick it up.
                *ending
              #Walk on.
                *finish
            """)
        _ = try dir.write("game/scenes/road.txt", """
            *label top
            The road goes on.
            *fake_choice
              *if lucky
                #Dance.
              *else
                #Walk.
            *ending
            """)
        let path = dir.path + "/game"
        let report = try await StoryTestRunner(story: path, options: StoryTestOptions(runs: 5, jobs: 2)) { await StorySources.open(path) }.run()
        let lines = try #require(report.coverage.first { $0.kind == "lines" }, "\(report.summary)")
        // Counted: startup 1, 4, 6-13 (10 lines); road 2-8 (7 lines).
        #expect(lines.total == 17, "\(lines)")
        #expect(lines.unreached == ["startup line 8", "startup line 10", "startup line 11", "road line 5"], "\(lines)")
        #expect(lines.reached == 13)
        #expect(report.neverOffered == [
            NeverOfferedChoice(choice: "Pick it up.", part: "startup line 10", reason: "its *if (lucky) was never true"),
            NeverOfferedChoice(choice: "Dance.", part: "road line 5", reason: "the *if lucky it is under (road line 4) was never true"),
        ], "\(report.summary)")
        #expect(report.summary.contains("never offered: 2 choices\n    \"Pick it up.\" (startup line 10): its *if (lucky) was never true"), "\(report.summary)")
        #expect(report.passed, "\(report.summary)")
    }
}
