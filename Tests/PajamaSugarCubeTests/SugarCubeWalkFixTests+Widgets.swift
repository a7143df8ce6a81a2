import PajamaSugarCube
import PajamaTwine
import Testing

/// The differences the browser walks found at session 19: macro contexts, widgets' errors, listboxes,
/// animations and `randomMany`, each against what SugarCube 2.37.3 does with the same source.
extension SugarCubeWalkFixTests {
    /// Erios909--ShipCore-The-Game's mirror (`<<listbox "$player.gender">>`): the page shows the option
    /// selected, as the `<select>` does (listbox.js gives an `<option>` its label as text, not markup).
    @Test func aListboxShowsTheOptionSelected() throws {
        let runtime = try sugarCube("""
        :: Start
        You see <<listbox "$gender">><<option "a man" 1>><<option "a //woman//" 2 selected>><</listbox>> with <<listbox "$hair" autoselect>><<optionsfrom ["short", "long"]>><</listbox>> hair. $gender $hair
        """)
        let moment = runtime.start()
        #expect(moment.errors.isEmpty, "\(moment.errors)")
        #expect(moment.text == ["You see a //woman// with short hair. 2 short"], "\(moment.text)")
    }

    /// danielbarnes175--SonsOfOrdson's `<<numberinput>>` asks `this.contextSelect(...)` for an enclosing
    /// `<<numberpool>>` and reads `parent.hasOwnProperty` when it is not null: MacroContext's `contextFind` is
    /// undefined when no parent matches, so SugarCube fails there ("cannot execute macro"), and so does Pajama.
    /// A custom macro's parent is the custom macro that wikified it.
    @Test func macroContextsFindTheirParentsAsSugarCubes() throws {
        let runtime = try sugarCube("""
        :: Script [script]
        Macro.add("outer", { tags: null, handler() { $(this.output).wiki(this.payload[0].contents); } });
        Macro.add("inner", { handler() {
            const found = this.contextSelect(c => c.name === "outer");
            $(this.output).wiki((found === undefined ? "none" : "in " + found.name) + " " + this.contextFilter(() => true).length + " " + this.contextSome(c => c.name === "outer"));
        } });
        Macro.add("pooled", { handler() {
            const pool = (() => { const parent = this.contextSelect(c => c.name === "numberpool"); return null !== parent && parent.hasOwnProperty("pool") ? parent.pool : null; })();
            $(this.output).wiki("pool " + pool);
        } });

        :: Start
        <<inner>>. <<outer>><<inner>><</outer>>. <<pooled>>
        """)
        #expect(runtime.scriptErrors.isEmpty, "\(runtime.scriptErrors)")
        let moment = runtime.start()
        let text = moment.text.joined(separator: "\n")
        #expect(text.hasPrefix("none 0 false. in outer 1 true. "), "\(moment.text)")
        #expect(text.contains("Error: cannot execute macro &lt;&lt;pooled&gt;&gt;: ") || text.contains("Error: cannot execute macro <<pooled>>: "), "\(moment.text)")
        #expect(text.contains("pool null") == false)
    }

    /// digitalwarenkombinat--ghosthunt's `<<txt>>` widget fails inside: widget.js renders a widget into a
    /// fragment and, when errors are in it, shows one error naming them all instead of what it wrote.
    @Test func aWidgetsErrorsAreOneError() throws {
        let runtime = try sugarCube("""
        :: Widgets [widget]
        <<widget "txt">>shown <<set $a to undefined.x>><<= undefined.y>> too<</widget>>
        <<widget "fine">>fine <<= _args[0]>><</widget>>
        <<widget "once">>once <<= undefined.z>><</widget>>

        :: Start
        A <<txt>> B <<fine 3>> C <<once>>
        """)
        let moment = runtime.start()
        let text = moment.text.joined(separator: "\n").replacing("&lt;", with: "<").replacing("&gt;", with: ">")
        #expect(text.contains("shown") == false, "\(moment.text)")
        #expect(text.contains("Error: <<txt>>: errors within widget code (Error: <<set>>: bad evaluation: "), "\(moment.text)")
        #expect(text.contains("; Error: <<=>>: bad evaluation: "), "\(moment.text)")
        #expect(text.contains("B fine 3 C"), "\(moment.text)")
        #expect(text.contains("Error: <<once>>: error within widget code (Error: <<=>>: bad evaluation: "), "\(moment.text)")
        #expect(moment.errors.count == 3, "\(moment.errors)")
    }

    /// samnyevr--Merchant-Mile's `<<fadein>>` hides its text and fades it in (`.hide().delay(a).fadeIn(t)`):
    /// an animation is shown as it ends, as `<<timed>>` is shown at once, so faded in is shown, faded out is not.
    @Test func animationsAreShownAsTheyEnd() throws {
        let runtime = try sugarCube("""
        :: Script [script]
        Macro.add("fadein", { tags: null, handler() { $(document.createElement("span")).wiki(this.payload[0].contents).appendTo(this.output).hide().delay(1000).fadeIn(5000); } });
        Macro.add("fadeout", { tags: null, handler() { $(document.createElement("span")).wiki(this.payload[0].contents).appendTo(this.output).fadeOut(500); } });
        Macro.add("flip", { handler() { $("<span>").text("flipped").hide().appendTo(this.output).toggle(); $("<span>").text("gone").appendTo(this.output).slideToggle(); } });

        :: Start
        Before <<fadein 5s 1s>>faded in<</fadein>> <<fadeout 1s>>faded out<</fadeout>> <<flip>> after.
        """)
        #expect(runtime.scriptErrors.isEmpty, "\(runtime.scriptErrors)")
        let moment = runtime.start()
        #expect(moment.errors.isEmpty, "\(moment.errors)")
        #expect(moment.text.joined(separator: "\n").replacing(/<[^>]*>/, with: "") == "Before faded in  flipped after.", "\(moment.text)")
    }

    /// `[].randomMany(n)` draws as SugarCube's does: an index at a time, one drawn before drawn again, so the
    /// same seed picks the same members.
    @Test func randomManyDrawsAsSugarCubes() throws {
        let story = """
        :: Start
        <<print [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].randomMany(4).join(" ")>>
        """
        let byHand = """
        :: Start
        <<print (function () { const seen = new Set(), out = []; while (out.length < 4) { const i = Math.floor(Math.random() * 10); if (!seen.has(i)) { seen.add(i); out.push(i); } } return out.join(" "); })()>>
        """
        for seed in 1...4 {
            let drawn = try sugarCube(story, seed: seed).start().text
            #expect(drawn == (try sugarCube(byHand, seed: seed).start().text), "seed \(seed): \(drawn)")
        }
    }

    /// Killbearj--TwineTime--2's `[[Restart|Start][state.restart()]]` (`state` is SugarCube 1's): the setter
    /// throws, so SugarCube's click never reaches `Engine.play` and the page stays; what the setter set before
    /// it threw is kept.
    @Test func aLinkWhoseSetterThrowsStaysOnThePage() throws {
        let runtime = try sugarCube("""
        :: Start
        Here $n. [[Restart|Elsewhere][$n to 1; state.restart()]] [[Fine|Elsewhere][$n to 2]]

        :: Elsewhere
        There $n.
        """)
        let first = runtime.start()
        let stayed = try runtime.choose(0)
        #expect(stayed.passage == "Start")
        #expect(stayed.text == first.text, "\(stayed.text)")
        #expect(stayed.labels == ["Restart", "Fine"])
        #expect(stayed.errors.contains { $0.contains("the link's setter") }, "\(stayed.errors)")
        let went = try runtime.choose(1)
        #expect(went.passage == "Elsewhere")
        #expect(went.text == ["There 2."], "\(went.text)")
    }

    /// Erios909--ShipCore-The-Game's `<<live>>` evaluates `this.args.full` (the arguments desugared: `$x` is
    /// `State.variables.x`) with `toStringOrDefault`, a function of SugarCube's own scope the Story JavaScript
    /// sees; `return this.error(...)` writes `Error: <<name>>: ...` where the macro is, and the page goes on.
    @Test func customMacrosSeeSugarCubesScopeAndWriteTheirErrors() throws {
        let runtime = try sugarCube("""
        :: Script [script]
        Macro.add("live", { skipArgs: true, handler() {
            if (this.args.full.length === 0) return this.error("no expression specified");
            $("<span></span>").wiki(toStringOrDefault(Scripting.evalJavaScript(this.args.full), null)).appendTo(this.output);
        } });

        :: StoryInit
        <<set $path to "a.png">>

        :: Start
        Portrait <<live '<b>' + $path + '</b>'>> <<live>> after.
        """)
        #expect(runtime.scriptErrors.isEmpty, "\(runtime.scriptErrors)")
        let moment = runtime.start()
        let text = moment.text.joined(separator: "\n").replacing("&lt;", with: "<").replacing("&gt;", with: ">")
        #expect(text.hasPrefix("Portrait <span><b>a.png</b></span> "), "\(moment.text)")
        #expect(text.contains("Error: <<live>>: no expression specified"), "\(moment.text)")
        #expect(text.hasSuffix(" after."), "\(moment.text)")
        #expect(moment.errors.count == 1, "\(moment.errors)")
    }

    /// Erios909--ShipCore-The-Game writes `<<on ...>>...<</on>>`, a macro no script defines: SugarCube shows
    /// `Error: macro <<on>> does not exist`, reads what follows as markup, and errs again at `<</on>>`; a
    /// macro of SugarCube's that Pajama does not play keeps Pajama's notice.
    @Test func aMacroNoOneDefinesIsSugarCubesError() throws {
        let runtime = try sugarCube("""
        :: Start
        A <<on ":x">>inside $n<</on>> B <<nothing 1>> C <<copy "#a">>
        """)
        let moment = runtime.start()
        let text = moment.text.joined(separator: "\n").replacing("&lt;", with: "<").replacing("&gt;", with: ">").replacing(/<span[^>]*>|<\/span>/, with: "")
        #expect(text == "A [Error: macro <<on>> does not exist]inside $n[Error: macro <</on>> does not exist] B [Error: macro <<nothing>> does not exist] C [<<copy>> is not played in Pajama]",
                "\(moment.text)")
    }

    /// samnyevr--Merchant-Mile's FarmC writes `<if/else>`: no tag by SugarCube's `htmlTag` pattern (a name, then
    /// attributes each after white space, then `>` or `/>`), so it is text; real tags stay tags.
    @Test func onlyWhatSugarCubeReadsAsATagIsOne() throws {
        let runtime = try sugarCube("""
        :: Start
        <if/else> <b class=big>bold</b> <img src="a.png" alt="x"/><br/> <i title='t'x>no</i>
        """)
        let text = runtime.start().text.joined().replacing("&gt;", with: ">")
        #expect(text.hasPrefix("&lt;if/else> <b class=big>bold</b> "), "\(text)")
        #expect(!text.contains("&lt;img") && !text.contains("&lt;br"), "\(text)")
        #expect(text.contains("&lt;i title='t'x>no"), "\(text)")
    }

    /// samnyevr--Merchant-Mile's North Gate: `<html><big><b>Crowl |</big></b></html>`: inside `<html>` the
    /// browser parses the HTML and drops the closing tag left over; outside, SugarCube shows it as text.
    @Test func aClosingTagLeftOverInsideHTMLIsDropped() throws {
        let runtime = try sugarCube("""
        :: Start
        <html><big><b>Crowl |</big></b></html> Gate</b>
        """)
        let text = runtime.start().text.joined()
        #expect(text.contains("&lt;/b&gt;Gate") == false, "\(text)")
        #expect(text.replacing(/<[^>]*>/, with: "") == "Crowl | Gate&lt;/b&gt;", "\(text)")
    }

    /// danielbarnes175--SonsOfOrdson's `<<numberpool>>` (the numberpool macro set) keeps its ids in
    /// `TempState`, SugarCube's scratch object for macros, which the engine makes anew at each passage;
    /// Pajama had none ("Can't find variable: TempState") and the pool's fields were an error.
    @Test func tempStateIsANewScratchObjectAtEachPassage() throws {
        let runtime = try sugarCube("""
        :: Script [script]
        Macro.add("tick", { handler() {
            TempState.ticks = (TempState.ticks || 0) + 1;
            $(this.output).wiki("tick " + TempState.ticks);
        } });

        :: Start
        <<tick>> <<tick>> [[On]]

        :: On
        <<tick>>
        """)
        let first = runtime.start()
        #expect(first.errors.isEmpty, "\(first.errors)")
        #expect(first.text.first?.hasPrefix("tick 1 tick 2") == true, "\(first.text)")
        let next = try runtime.choose(0)
        #expect(next.errors.isEmpty, "\(next.errors)")
        #expect(next.text == ["tick 1"], "\(next.text)")
    }

    /// The numberpool set's `<<numberpool>>` is a story's macro with a child tag (`tags: ["onchange"]`): its
    /// body is split there, each part a payload of its own, as SugarCube's parser splits it; before, the
    /// child tag stayed in the first payload, and showed as a macro that does not exist.
    @Test func aStorysMacroWithChildTagsGetsAPayloadForEach() throws {
        let runtime = try sugarCube("""
        :: Script [script]
        Macro.add("pool", { tags: ["onchange", "onreset"], handler() {
            $(this.output).wiki(this.payload.map(p => p.name + "(" + p.args.length + "): " + p.contents.trim()).join(" / "));
        } });

        :: Start
        <<pool "$x">>first part<<onchange>>second part<<onreset 1 2>>third part<</pool>>
        """)
        let moment = runtime.start()
        #expect(runtime.scriptErrors.isEmpty, "\(runtime.scriptErrors)")
        #expect(moment.errors.isEmpty, "\(moment.errors)")
        #expect(moment.text == ["pool(1): first part / onchange(0): second part / onreset(2): third part"], "\(moment.text)")
    }

    /// danielbarnes175--SonsOfOrdson's `macros.getStarterEquipment = { handler(place, macroName, params,
    /// parser) { ... } }`: SugarCube 1's macro API, which SugarCube 2 still calls (with a deprecation warning)
    /// when `Macro` has no macro of the name; Pajama said the macro did not exist.
    @Test func aMacroOfTheLegacyAPIRunsAsSugarCubeCallsIt() throws {
        let runtime = try sugarCube("""
        :: Script [script]
        macros.grant = { handler(place, macroName, params, parser) {
            State.variables.gold = (State.variables.gold || 0) + params[0];
            new Wikifier(place, macroName + " gave " + params[0]);
        } };

        :: Start
        <<grant 5>> <<grant 2>>, now $gold.
        """)
        let moment = runtime.start()
        #expect(runtime.scriptErrors.isEmpty, "\(runtime.scriptErrors)")
        #expect(moment.errors.isEmpty, "\(moment.errors)")
        #expect(moment.text == ["grant gave 5 grant gave 2, now 7."], "\(moment.text)")
    }

    /// The numberpool's `jQuery(document.createElement("div")).wiki(content)`: markup wikified into a block
    /// element begins a line there (SugarCube wikifies it into the element of its own), so a table's first
    /// row is a row; before, it followed the `<div>` tag on its line and showed as `|Strength:|`.
    @Test func markupWikifiedIntoABlockBeginsALineThere() throws {
        let runtime = try sugarCube("""
        :: Script [script]
        Macro.add("stats", { handler() {
            jQuery(document.createElement("div")).addClass("macro-stats").wiki("|''Strength:''|8|\\n|''Wisdom:''|9|").appendTo(this.output);
        } });

        :: Start
        Stats: <<stats>>
        """)
        let moment = runtime.start()
        #expect(runtime.scriptErrors.isEmpty, "\(runtime.scriptErrors)")
        #expect(!moment.text.joined().contains("|"), "\(moment.text)")
        #expect(moment.text.joined(separator: " ").contains("Strength:"), "\(moment.text)")
    }
}
