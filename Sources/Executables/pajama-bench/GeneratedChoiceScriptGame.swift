/// A ChoiceScript game generated for the `choicescript` scenario, the same on every run: `startup.txt` (its
/// `*title`, `*author`, `*scene_list` and `*create`s) and chapters of `roomsPerChapter` rooms, until the scenes
/// hold about `bytes`. A room is made of the constructs real games use:
///
///     *label room_7
///     *temp here 7
///     Room 7 of chapter 2. The corridor bends here; ... ${name} counts ${gold} coins.
///     *if strength > 60
///       You feel strong.
///     *elseif strength > 40
///       You feel steady.
///     *else
///       You feel tired.
///     *rand roll 1 6
///     *set gold + roll
///     *if roll = 6
///       *gosub lantern
///     A painting of a ship hangs crooked; someone left a note: "room ${here}".
///     *choice
///       #Walk on.
///         *set strength %+5
///         *goto room_8
///       #Rest a while.
///         *set strength %-5
///         You sit down for a moment.
///         *page_break Stand up
///         *goto room_8
///       *selectable_if (gold > 100000) #Buy the ship.
///         *goto room_8
///
/// A chapter ends with `*finish` (the next scene of the list), the last with `*ending`; `*gosub lantern` is a
/// subroutine at the chapter's start, jumped over by its first line.
enum GeneratedChoiceScriptGame {
    /// The scene files by name (`startup` first in the list), about `bytes` in all.
    static func scenes(bytes: Int, roomsPerChapter: Int = 40) -> [(name: String, text: String)] {
        var chapters: [String] = []
        var size = 0
        while size < bytes {
            let text = chapter(chapters.count + 1, rooms: roomsPerChapter)
            chapters.append(text)
            size += text.utf8.count
        }
        let names = chapters.indices.map { "chapter\($0 + 1)" }
        var last = chapters[chapters.count - 1]
        last = String(last.dropLast("*finish\n".utf8.count)) + "*ending\n"
        chapters[chapters.count - 1] = last
        let startup = """
            *title The Long Corridor
            *author Pajama's bench
            *scene_list
              startup
            \(names.map { "  " + $0 }.joined(separator: "\n"))
            *create strength 50
            *create gold 0
            *create name "Ada"
            The corridor waits, ${name}.
            *choice
              #Go in.
                *finish
              #Go in slowly.
                *set strength -5
                *finish

            """
        return [("startup", startup)] + zip(names, chapters).map { ($0, $1) }
    }

    private static func chapter(_ number: Int, rooms: Int) -> String {
        var lines: [String] = []
        for room in 1...rooms {
            let next = "room_\(room + 1)"
            lines += [
                "*label room_\(room)",
                "*temp here \(room)",
                "Room \(room) of chapter \(number). The corridor bends here; dust lies on the floor and a draught comes from "
                    + "somewhere ahead. ${name} counts ${gold} coins.",
                "*if strength > 60", "  You feel strong.", "*elseif strength > 40", "  You feel steady.", "*else", "  You feel tired.",
                "*rand roll 1 6",
                "*set gold + roll",
                "*if roll = 6", "  *gosub lantern",
                "A painting of a ship hangs crooked; someone left a note: \"room ${here}\".",
                "*choice",
                "  #Walk on.", "    *set strength %+5", "    *goto \(next)",
                "  #Rest a while.", "    *set strength %-5", "    You sit down for a moment.", "    *page_break Stand up", "    *goto \(next)",
                "  *selectable_if (gold > 100000) #Buy the ship.", "    *goto \(next)",
                "",
            ]
        }
        lines += ["*label room_\(rooms + 1)", "The chapter ends.", ""]
        let subroutine = ["*label lantern", "The lantern flickers, and steadies.", "*return", ""]
        // The subroutine comes first, jumped over: it is reached only through *gosub.
        lines.insert(contentsOf: subroutine, at: 0)
        return "*goto room_1\n" + lines.joined(separator: "\n") + "*finish\n"
    }
}
