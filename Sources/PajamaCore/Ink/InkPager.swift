/// Turns the lines ink produced between two choice points into pages (docs/ink.md, "Pages").
///
/// A page holds at most `linesPerPage` lines. A new page starts at a line tagged `# page`, at a line whose
/// `# image` differs from the picture the page already has, and when the page is full. A tag on a line of
/// its own (no text) applies to the line that follows. `# sound` adds a page-enter sound to the page where the
/// line lands, `# tap_sound` a tap sound. Pictures and sounds pending when the choices come go to the choice
/// page.
struct InkPager {
    /// One line of ink output, without its newline.
    struct Line: Equatable {
        var text: String
        var tags: [String]
        /// The ink path where the line started (for messages).
        var inkPath: String
    }

    /// A tag whose path breaks the package rules.
    struct BadTag: Error, Equatable {
        var tag: String
        var inkPath: String
        var reason: String
    }

    static let linesPerPage = 12

    private struct Draft {
        var lines: [String] = []
        var image: AssetPath?
        var tools: [Tool] = []
        var isEmpty: Bool { lines.isEmpty && image == nil && tools.isEmpty }
    }

    private var pages: [Page] = []
    private var draft = Draft()
    /// What tags on lines without text asked for, waiting for the next line with text.
    private var pending = Draft()
    private var breakPending = false

    /// Pages for `lines`, then a choice page with `choices` when there are any.
    static func pages(for lines: [Line], choices: [Choice]) throws(BadTag) -> [Page] {
        var pager = InkPager()
        for line in lines { try pager.add(line) }
        return pager.finish(choices: choices)
    }

    private mutating func add(_ line: Line) throws(BadTag) {
        for raw in line.tags {
            let tag = InkTag(raw)
            if tag == .page { breakPending = true }
            guard let (field, value) = tag.asset else { continue }
            let path: AssetPath
            do {
                path = try AssetPath(validating: value)
            } catch {
                throw BadTag(tag: "# " + raw.trimmingInkSpaces(), inkPath: line.inkPath, reason: "\(field): \(error)")
            }
            switch tag {
            case .image: pending.image = path
            case .sound: pending.tools.append(Self.sound(path, .pageEnter))
            default: pending.tools.append(Self.sound(path, .tap))
            }
        }
        guard !line.text.isEmpty else { return }
        let newPicture = pending.image != nil && draft.image != nil && pending.image != draft.image
        if (breakPending || newPicture || draft.lines.count >= Self.linesPerPage) && !draft.lines.isEmpty { flush() }
        breakPending = false
        if let image = pending.image { draft.image = image }
        draft.tools += pending.tools
        draft.lines.append(line.text)
        pending = Draft()
    }

    private static func sound(_ path: AssetPath, _ trigger: SoundTrigger) -> Tool {
        Tool(name: "sound_effect", args: ["sound_url": .string(path.value), "trigger": .string(trigger.rawValue)],
             soundEffect: SoundEffect(soundURL: path, trigger: trigger))
    }

    private mutating func flush() {
        pages.append(Page(id: "p\(pages.count + 1)", kind: .text(lines: draft.lines), imageUrl: draft.image, tools: draft.tools))
        draft = Draft()
    }

    private mutating func finish(choices: [Choice]) -> [Page] {
        if !draft.lines.isEmpty { flush() }
        if !choices.isEmpty {
            pages.append(Page(id: "choices", kind: .choice(prompt: nil, choices: choices), imageUrl: pending.image, tools: pending.tools))
        } else if !pending.isEmpty, var last = pages.popLast() {
            // Tags after the last line of an ending: they belong to its last page.
            if last.imageUrl == nil { last.imageUrl = pending.image }
            last.tools += pending.tools
            pages.append(last)
        }
        return pages
    }
}
