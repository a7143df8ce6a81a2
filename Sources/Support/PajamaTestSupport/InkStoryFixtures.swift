/// Compiled ink stories written by hand for the ink reading tests (docs/ink.md).
package enum InkStoryFixtures {
    /// 14 plain lines, a `# page` break, two pictures and a sound, then two choices: `left` ends, `right`
    /// ends on a critical picture. `leftText` lets a test change the story.
    package static func paging(leftText: String = "Left side.", choices: Int = 2) -> String {
        let lines = (1...14).map { ##""^Line \##($0).","\n""## }.joined(separator: ",")
        var choiceObjects = ##""ev","str","^Go left","/str","/ev",{"*":"0.c-0","flg":20}"##
        if choices > 1 { choiceObjects += ##","ev","str","^Go right","#","^sound: sounds/step.wav","/#","/str","/ev",{"*":"0.c-1","flg":20}"## }
        return ##"""
        {"inkVersion":21,"root":[["#","^title: Paging","/#","#","^author: Tests","/#",\##(lines),"#","^page","/#","^After the break.","\n","^With a picture.","#","^image: images/a.png","/#","\n","^Another picture.","#","^image: images/b.png","/#","#","^sound: sounds/s.wav","/#","#","^mood: grey","/#","\n",\##(choiceObjects),{"c-0":[{"->":"left"},{"#f":5}],"c-1":[{"->":"right"},{"#f":5}]}],"done",{"left":["^\##(leftText)","\n","end",{"#f":1}],"right":["^Right side.","#","^critical","/#","#","^image: images/r.png","/#","\n","end",{"#f":1}]}],"listDefs":{}}
        """##
    }

    /// A random number (1 to 1000) and a sticky choice back to the top, for ever.
    package static let randomLoop = ##"""
    {"inkVersion":21,"root":[["ev",1,1000,"rnd","out","/ev","\n","ev","str","^Again","/str","/ev",{"*":"0.c-0","flg":4},{"c-0":[{"->":"0"},{"#f":5}]}],"done",null],"listDefs":{}}
    """##

    /// A line, then a division by zero.
    package static let runtimeError = ##"""
    {"inkVersion":21,"root":[["^Before the error.","\n","ev",1,0,"/","out","/ev","\n","end",null],"done",null],"listDefs":{}}
    """##

    /// `count` lines without a choice, then the end.
    package static func longRun(_ count: Int) -> String {
        let lines = (1...count).map { ##""^Run \##($0).","\n""## }.joined(separator: ",")
        return ##"{"inkVersion":21,"root":[[\##(lines),"end",null],"done",null],"listDefs":{}}"##
    }

    /// A picture tag that leads out of the story folder, and a dynamic tag.
    package static let escapingTag = ##"""
    {"inkVersion":21,"root":[["^Look.","#","^image: ../secret.png","/#","\n","^Dynamic.","#","ev",1,"out","/ev","/#","\n","end",null],"done",null],"listDefs":{}}
    """##
}

extension InkStoryFixtures {
    /// `EXTERNAL name()` with an ink fallback that returns "traveller" (issue 24's reproduction).
    package static let externalWithFallback = ##"""
    {"inkVersion":21,"root":[["^Hello, ","ev",{"x()":"name"},"out","/ev","^!","\n",["done",{"#n":"g-0"}],null],"done",{"name":["ev","str","^traveller","/str","/ev","~ret",{"#f":1}]}],"listDefs":{}}
    """##

    /// `EXTERNAL score()` and `EXTERNAL ring()`, neither with an ink fallback.
    package static let externalWithoutFallback = ##"""
    {"inkVersion":21,"root":[["^Your score: ","ev",{"x()":"score"},"out","/ev","\n","ev",{"x()":"ring"},"pop","/ev",["done",{"#n":"g-0"}],null],"done",null],"listDefs":{}}
    """##

    /// A story written for Inky's web player: global `title` (with markup), `author` and `theme`; a first line
    /// with `IMAGE`, `AUDIO`, `AUDIOLOOP` and HTML; a `CLEAR`; a `CLASS`; a `BACKGROUND`; a choice with
    /// markup. Its `next` knot stops the loop (`AUDIOLOOP: none`), then `RESTART` before a line never shown.
    package static let web = ##"""
    {"inkVersion":21,"root":[["#","^title: A <b>Web</b> Story","/#","#","^AUTHOR: Someone &amp; Co","/#","#","^theme: dark","/#","^The <b>storm</b> came &amp; went.<br>Second row.","#","^IMAGE: images/a.png","/#","#","^AUDIO: sounds/bell.wav","/#","#","^AUDIOLOOP: sounds/rain.wav","/#","\n","^Plain <i>line</i> with <blink>junk</blink>.","\n","#","^CLEAR","/#","^After the clear.","#","^CLASS: dim","/#","\n","#","^BACKGROUND: images/bg.png","/#","^Background page.","\n","ev","str","^Go <b>on</b>","/str","/ev",{"*":"0.c-0","flg":20},{"c-0":[{"->":"next"},{"#f":5}]}],"done",{"next":["^Still raining.","\n","#","^AUDIOLOOP: none","/#","^Quiet now.","\n","#","^RESTART","/#","^Never shown.","\n","end",{"#f":1}]}],"listDefs":{}}
    """##
}

extension InkStoryFixtures {
    /// A knot that ends without `-> DONE` or `-> END`: its last line, then ink's "ran out of content" error
    /// in the same continue.
    package static let ranOutOfContent = ##"""
    {"inkVersion":21,"root":[[{"->":"k"},["done",{"#n":"g-0"}],null],"done",{"k":["^First words.","\n","^Last words.","\n",null]}],"listDefs":{}}
    """##
}

extension InkStoryFixtures {
    /// A story written for Inky's web player, as the reader's screen shows it: global `title` (with markup)
    /// and `AUTHOR`; a first line with HTML (bold, a break), `IMAGE` (a text-art picture) and `AUDIOLOOP`; a
    /// line with italic and unknown markup; a `CLEAR`; a `BACKGROUND`; a choice with markup. Its `next` knot
    /// stops the loop (`AUDIOLOOP: none`), then `RESTART` before a line never shown. Its files:
    /// images/harbour.txt, images/bg.png, sounds/rain.wav.
    package static let webOnScreen = ##"""
    {"inkVersion":21,"root":[["#","^title: A <b>Web</b> Story","/#","#","^AUTHOR: Someone &amp; Co","/#","^The <b>storm</b> came &amp; went.<br>Second row.","#","^IMAGE: images/harbour.txt","/#","#","^AUDIOLOOP: sounds/rain.wav","/#","\n","^Plain <i>line</i> with <blink>junk</blink>.","\n","#","^CLEAR","/#","^After the clear.","\n","#","^BACKGROUND: images/bg.png","/#","^Background page.","\n","ev","str","^Go <b>on</b>","/str","/ev",{"*":"0.c-0","flg":20},{"c-0":[{"->":"next"},{"#f":5}]}],"done",{"next":["^Still raining.","\n","#","^AUDIOLOOP: none","/#","^Quiet now.","\n","#","^RESTART","/#","^Never shown.","\n","end",{"#f":1}]}],"listDefs":{}}
    """##
}
