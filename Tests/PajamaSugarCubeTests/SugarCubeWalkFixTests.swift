import PajamaSugarCube
import PajamaTwine
import Testing

/// The differences the browser walks found (docs/sugarcube.md, "Agreement with SugarCube"), each against what
/// SugarCube 2 shows in Chromium for the same source.
@Suite struct SugarCubeWalkFixTests {
    /// 666feiyu666--Fox-and-Crow: a `<dialog>` (not open) in PassageHeader printed "Story Log THE JOURNEY SO
    /// FAR ..." on every page; a browser shows none of a hidden element, and offers none of its links.
    @Test func hiddenHTMLShowsNothingAndOffersNothing() throws {
        let runtime = try sugarCube("""
        :: Start
        Before<dialog class="log"><div><p>Story Log</p></div>[[Secret]]</dialog> after.
        <div style="display: none"><<set $ran to true>><div>inner</div>[[Secret]]</div><span hidden>quiet</span>
        <dialog open>Shown</dialog> <<print $ran>>
        [[Next]]

        :: Secret
        no

        :: Next
        yes
        """)
        let moment = runtime.start()
        #expect(moment.error == nil)
        #expect(moment.text.joined(separator: "\\n").contains("Story Log") == false)
        #expect(moment.text.joined(separator: "\\n").contains("inner") == false)
        #expect(moment.text.joined(separator: "\\n").contains("quiet") == false)
        #expect(moment.text.joined(separator: "\\n").contains("Shown"))
        #expect(moment.text.joined(separator: "\\n").contains("true"))
        #expect(moment.labels == ["Next"])
    }

    /// progamurstur--climate-adventure calls `hasVisited()`, and Merchant-Mile and ShipCore `Util.fromCssTime()`:
    /// SugarCube's story functions and `Util`, as markup/scripting.js and util/*.js define them.
    @Test func storyFunctionsAndUtilAreSugarCubes() throws {
        let runtime = try sugarCube("""
        :: Start
        [[Next]]

        :: Next
        <<print hasVisited("Start")>> <<print hasVisited("Start", "Elsewhere")>> <<print lastVisited("Start", "Next")>> \
        <<print lastVisited("Elsewhere")>> <<print previous()>> <<print State.passages.join("+")>> <<print random(3, 3)>> \
        <<print Util.fromCssTime("1.5s")>> <<print Util.fromCssTime("20ms")>> <<print Util.slugify("Big Fox!")>> \
        <<print Util.toStringTag([])>> <<print Util.escape("<b>")>> <<print L10n.get(["nothing", "textOk"])>>
        """)
        _ = runtime.start()
        let moment = try runtime.choose(0)
        #expect(moment.errors.isEmpty, "\(moment.errors)")
        #expect(moment.text == ["true false 0 -1 Start Start+Next 3 1500 20 big-fox Array &amp;lt;b&amp;gt; OK"]
            || moment.text == ["true false 0 -1 Start Start+Next 3 1500 20 big-fox Array &lt;b&gt; OK"], "\(moment.text)")
    }

    /// Erios909--ShipCore-The-Game reads `SimpleAudio.tracks.get(id).duration()` of a track `<<cacheaudio>>`
    /// named: SugarCube's tracks, which a page without sound never loads (`duration()` NaN, not playing).
    @Test func simpleAudioKeepsTheTracksCached() throws {
        let runtime = try sugarCube("""
        :: Script [script]
        SimpleAudio.tracks.add("boom", "boom.wav");

        :: StoryInit
        <<set _song to "song.mp3">><<cacheaudio "song" _song>>

        :: Start
        <<run SimpleAudio.tracks.get("song").volume(0.2).play()>><<print SimpleAudio.tracks.has("song")>> \
        <<print SimpleAudio.tracks.get("song").duration()>> <<print SimpleAudio.tracks.get("song").isPlaying()>> \
        <<print SimpleAudio.tracks.get("boom").hasSource()>> <<print SimpleAudio.tracks.get("none")>> \
        <<run SimpleAudio.select("boom").volume(0.5).play()>><<print SimpleAudio.volume()>>
        [[Next]]

        :: Next
        <<print SimpleAudio.tracks.get("song").sources.join()>>
        """)
        #expect(runtime.scriptErrors.isEmpty)
        let moment = runtime.start()
        #expect(moment.errors.isEmpty, "\(moment.errors)")
        // `<<print>>` writes a value as SugarCube's `stringFrom` does: NaN and null are named.
        #expect(moment.text.first == "true [number NaN] false true [null] 1", "\(moment.text)")
        let next = try runtime.choose(0)
        #expect(next.text == ["song.mp3"], "\(next.text)")
    }

    /// Gigamouse--A-Charm-Of-Witches, kidnappingof, areyoumeticulousenough: SugarCube's `list` parser needs no
    /// space after `*` (`**THE END**` is an item "THE END**"), `--` is an em dash, `----` alone on its line a
    /// rule (and not when text follows it), `^^`/`~~` superscript and subscript.
    @Test func listsDashesAndRulesAreSugarCubes() throws {
        let runtime = try sugarCube("""
        :: Start
        In the elevator -- the glass one.
        ----
        ----more
        x^^2^^ and H~~2~~O
        **THE END**
        #one
        """)
        let moment = runtime.start()
        #expect(moment.text == ["In the elevator — the glass one.", "———", "——more", "x<sup>2</sup> and H<sub>2</sub>O", "• THE END**", "· one"],
                "\(moment.text)")
    }

    /// Erios909--ShipCore-The-Game ends a paragraph with `</p>` it never opened: SugarCube shows it as text (its
    /// `htmlTag` parser reads an element to its closing tag, so a closing tag with none open is no element's).
    @Test func aClosingTagWithNoElementOpenIsText() throws {
        let runtime = try sugarCube("""
        :: Start
        <p>Opened and closed.</p> The hull outside.</p><br>
        <span>a <b>b</b></span></b>
        """)
        #expect(runtime.start().text == ["<p>Opened and closed.</p>", " The hull outside.&lt;/p&gt;", "<span>a <b>b</b></span>&lt;/b&gt;"],
                "\(runtime.start().text)")
    }

    /// nyppsc--areyoumeticulousenough leaves its settings with `Engine.go(-$logoPresses)`: the passage that
    /// many moments back; `Engine.backward()` is one.
    @Test func engineGoBackGoesBackThatManyMoments() throws {
        let runtime = try sugarCube("""
        :: StoryInit
        <<set $money to 200>>

        :: Start
        Home $money. [[B]]

        :: B
        Bee. [[Settings]]

        :: Settings
        <<set $money -= 40>><<link "Leave">><<run Engine.go(-2)>><</link>> <<link "Back">><<run Engine.backward()>><</link>>
        """)
        _ = runtime.start()
        _ = try runtime.choose(0)
        _ = try runtime.choose(0)
        let home = try runtime.choose(0)
        #expect(home.passage == "Start", "\(home.passage) \(home.text)")
        // Going back takes the variables of the moment gone back to (SugarCube's history): the money too.
        #expect(home.text.first == "Home 200. <u>B</u>", "\(home.text)")
        _ = try runtime.choose(0)
        _ = try runtime.choose(0)
        let bee = try runtime.choose(1)
        #expect(bee.passage == "B", "\(bee.passage) \(bee.text)")
    }

    /// berthelemy--how-to-buy-software: a `<<button "Restart">><<run Engine.restart()>>` begins the reading
    /// again (SugarCube reloads its page), StoryInit's variables and all.
    @Test func engineRestartBeginsTheReadingAgain() throws {
        let runtime = try sugarCube("""
        :: StoryInit
        <<set $score to 0>>

        :: Start
        Score $score. [[Play]]

        :: Play
        <<set $score to 10>>Score $score. <<button "Restart">><<run Engine.restart()>><</button>>
        """)
        #expect(runtime.start().text.first?.hasPrefix("Score 0.") == true)
        #expect(try runtime.choose(0).text.first?.hasPrefix("Score 10.") == true)
        let again = try runtime.choose(0)
        #expect(again.passage == "Start" && again.text.first?.hasPrefix("Score 0.") == true, "\(again.passage) \(again.text)")
    }

    /// MIN1917--sacrifice-ring-twine has two passages named End_Success: SugarCube plays the last.
    @Test func ofTwoPassagesOfOneNameTheLastIsPlayed() throws {
        let runtime = try sugarCube("""
        :: Start
        [[End]]

        :: End
        Ending 1

        :: End
        Ending 2
        """)
        _ = runtime.start()
        #expect(try runtime.choose(0).text == ["Ending 2"])
        #expect(runtime.story.passages.filter { $0.name == "End" }.count == 1)
    }

    /// nyppsc--areyoumeticulousenough: SugarCube's `table` parser. A line `|a|b|` is a row; its cells are
    /// shown apart, a header's `!` and a merged cell's `~` are not, nor is a `k` row (class names); a line
    /// that only starts with `|` is text.
    @Test func tablesAreRowsOfCells() throws {
        let runtime = try sugarCube("""
        :: Start
        <<set $money to 200>>\\
        |stats|k
        |!Money |$money|h
        |Happiness| [[Rest|Start]] |
        |~|more|
        | not a row
        """)
        let moment = runtime.start()
        #expect(moment.text == ["Money   200", "Happiness   <u>Rest</u> ", "  more", "| not a row"], "\(moment.text)")
    }

    /// cybersecurity (`?A1` templates, a `<<cycle>>` whose label holds one), TwineTime--2 (`\` starting a
    /// line, `<<linkreplace @@.nolink;girl@@>>`, `[['Fuck off']]`), SonsOfOrdson (`State.getVar("$player.age")`):
    /// as SugarCube's parsers and macros read them.
    @Test func templatesCyclesLinkTextsAndLineContinuations() throws {
        let runtime = try sugarCube("""
        :: Script [script]
        Template.add(["Hero", "Hero2"], function () { return "''" + State.variables.hero + "''"; });
        Template.add("greeting", ["Hi", "Hi"]);

        :: StoryInit
        <<set $hero to "Hana", $player to {age: 20}>>

        :: Start
        \\?Hero says ?greeting to ?nobody. <<print State.getVar("$player.age")>><<run State.setVar("$player.age", 21)>> $player.age
        <<cycle "$pick">><<option "?Hero first" 1>><<option "second" 2 selected>><</cycle>> <<cycle "$other" autoselect>><<optionsfrom ["x", "y"]>><</cycle>> $pick $other
        <<linkreplace @@.nolink;girl@@>>woman<</linkreplace>> [['Quoted']] \\
        joined

        :: 'Quoted'
        q
        """)
        #expect(runtime.scriptErrors.isEmpty)
        let moment = runtime.start()
        #expect(moment.errors.isEmpty, "\(moment.errors)")
        #expect(moment.text == ["<b>Hana</b> says Hi to ?nobody. 20 21", "second x 2 x", "<u><span>girl</span></u> <u>'Quoted'</u> joined"], "\(moment.text)")
        #expect(moment.labels.map { $0.replacing(/<[^>]*>/, with: "") } == ["girl", "'Quoted'"], "\(moment.labels)")
    }

    /// ShipCore (a nobr passage of `<p>`s, its link in a `<span>` after them, on the line that follows) and Walkerm0927 (an `@@`
    /// span over two lines, `UI.alert` in a `<<script>>`): blocks are lines of their own, as a browser shows them.
    @Test func blocksAreLinesAndStyleSpansRunOverLines() throws {
        let runtime = try sugarCube("""
        :: Start [nobr]
        <p>First.</p><p>Second.</p><span><<link "Go">><<goto "End">><</link>></span>
        @@.big;one
        two@@<<script>>UI.alert("boo")<</script>>

        :: End
        x
        """)
        let moment = runtime.start()
        #expect(moment.errors.isEmpty, "\(moment.errors)")
        #expect(moment.text.map { $0.replacing(/<[^>]*>/, with: "") } == ["First.", "Second.", "Go one two"], "\(moment.text)")
        #expect(moment.labels == ["Go"])
    }

    /// aeredd quotes lines with `>>`, TwineTime--2 ends a condition with `;` (`<<if $weapon is "rock"; >>`) and
    /// prints a variable never set: SugarCube's `quoteByLine` (a blockquote), `Scripting.evalJavaScript`'s
    /// `eval` (a statement's value) and `stringFrom` (`[undefined]`, an array's items with ", ").
    @Test func quotedLinesEvaluatedStatementsAndPrintedValuesAreSugarCubes() throws {
        let runtime = try sugarCube("""
        :: Start
        <<set $weapon to "rock">>
        >> //shocker.//
        > quoted
        <<if $weapon is "rock"; >>rock<</if>> <<print $nobody>> <<print ["a", "b"]>> <<print null>> $nobody
        """)
        let moment = runtime.start()
        #expect(moment.errors.isEmpty, "\(moment.errors)")
        #expect(moment.text == ["<i>shocker.</i>", "quoted", "rock [undefined] a, b [null] $nobody"], "\(moment.text)")
    }

    /// kidnappingof, nyppsc, Super-Lovers (published HTML): their Story JavaScript is the `<script role="script">`
    /// beside the passages, which was never read, so their macros were missing; and it runs as engine.js runs
    /// it (`Scripting.evalJavaScript`), so its `let` is its own and a `<<script>>` may declare the same name.
    @Test func publishedStoriesRunTheirStoryJavaScriptInItsOwnScope() throws {
        let html = """
        <tw-storydata name="Lens" startnode="1" format="SugarCube" format-version="2.37.3" ifid="00000000-0000-4000-8000-000000000004">\
        <style role="stylesheet" id="twine-user-stylesheet" type="text/twine-css">body { color: red; }</style>\
        <script role="script" id="twine-user-script" type="text/twine-javascript">let width = 3; var height = 4;
        Macro.add("shout", { handler() { $(this.output).wiki("<b>" + this.args[0] + "</b>"); } });</script>\
        <tw-passagedata pid="1" name="Start" tags="">&lt;&lt;shout "hey"&gt;&gt; &lt;&lt;script&gt;&gt;let width = 5; State.variables.w = width;&lt;&lt;/script&gt;&gt;$w &lt;&lt;print typeof height&gt;&gt;</tw-passagedata>
        </tw-storydata>
        """
        let story = try TwineHTML.parse(html)
        #expect(story.passages.map(\.name) == ["Start", "Story JavaScript", "Story Stylesheet"])
        #expect(story.passages.map(\.tags) == [[], ["script"], ["stylesheet"]])
        let runtime = SugarCubeRuntime(story: story, seed: 1)
        #expect(runtime.scriptErrors.isEmpty, "\(runtime.scriptErrors)")
        let moment = runtime.start()
        #expect(moment.errors.isEmpty, "\(moment.errors)")
        #expect(moment.text == ["<b>hey</b> 5 undefined"], "\(moment.text)")
    }

    /// kidnappingof's `<<fade>>` builds `jQuery("<a/>").wiki(text)` and appends it to `this.output`; nyppsc's
    /// `<<volume>>` a `<span>` around an `<input>`: a small DOM stand-in writes what ends in the output, as
    /// the browser shows it; nyppsc's `<<link [img[...][Restart]]>>` is a picture link to Restart.
    @Test func customMacrosThatBuildElementsShowWhatTheyBuild() throws {
        let runtime = try sugarCube("""
        :: Script [script]
        Macro.add("fade", { handler() { const $link = jQuery("<a/>").wiki(this.args[0]).addClass("link-fade"); $link.on("click", () => 0); $(this.output).append($link); } });
        Macro.add("volume", { handler() { var w = $(document.createElement("span")); var s = $(document.createElement("input")); s.attr({ type: "range" });
            w.append(s).addClass("macro-" + this.name).appendTo(this.output); } });
        Macro.add("parts", { handler() { const el = document.createElement("b"); el.appendChild(document.createTextNode("$not a variable"));
            this.output.appendChild(el); $("<span class='x'>//in// it</span>").on("click", () => 0).appendTo(this.output);
            $("<span>").text("hidden").hide().appendTo(this.output); document.createElement("div").textContent = "nowhere"; } });

        :: Start
        Easier if you <<fade "''didn't'' look" "End">>. <<volume>><<parts>>
        <<link [img[logo.svg][End]]>><</link>>

        :: End
        Done.
        """)
        #expect(runtime.scriptErrors.isEmpty, "\(runtime.scriptErrors)")
        let moment = runtime.start()
        #expect(moment.errors.isEmpty, "\(moment.errors)")
        let text = moment.text.joined(separator: "\n").replacing(/<[^>]*>/, with: "")
        #expect(text == "Easier if you didn't look. $not a variablein it", "\(moment.text)")
        #expect(moment.labels == ["(the picture)"])
        #expect(try runtime.choose(0).passage == "End")
    }
}
