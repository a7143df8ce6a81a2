import PajamaModel

/// Turns the lines a story produced between two choice points into pages (docs/ink.md, "Pages"), for every
/// interpreted format: ink's lines come with their tags as ink wrote them; another format's bridge writes its
/// pictures, sounds and page breaks as the same tags (`PageTag`), so every format pages by one set of rules.
///
/// A page holds at most `linesPerPage` lines. A new page starts at a line tagged `# page` (or Inky's
/// `# CLEAR`), at a line whose picture (`# image`, `# IMAGE`, or `# BACKGROUND` on a page without its own
/// image) or background sound (`# AUDIOLOOP`) differs from the page's, and when the page is full. A tag on a line of its
/// own (no text) applies to the line that follows. `# sound` (`# AUDIO`) adds a page-enter sound to the page
/// where the line lands, `# tap_sound` a tap sound. Several pictures tagged before one line (`# IMAGE: a.png`
/// `# IMAGE: b.png`, as Inky's player shows one under the other) are each shown: every one but the last on a
/// page of its own (a picture page: a title page without a title), the last with the line. `# AUDIOLOOP` and `# BACKGROUND` hold from their line's
/// page on (`PageScene`, carried between beats). (`# RESTART` is the beat maker's: the beat ends before its
/// line, `restartLine(in:)`.) Pictures and sounds pending when the choices come go to the choice
/// page, and so does the last line before them, as its prompt (the choices are never shown without the text
/// that leads to them). A line's HTML markup becomes the page's marks (`PageMarkup`); `# CLASS` styles the whole line.
public struct Pager {
    /// One line of a story's output, without its newline.
    public struct Line: Equatable {
        public var text: String
        public var tags: [String]
        /// Where the line came from, for messages: an ink path, a Twine passage, a scene and line.
        public var place: String

        public init(text: String, tags: [String], place: String) {
            self.text = text
            self.tags = tags
            self.place = place
        }
    }

    /// A tag whose path breaks the package rules, and where it was (`Line.place`).
    public struct BadTag: Error, Equatable {
        public var tag: String
        public var place: String
        public var reason: String

        public init(tag: String, place: String, reason: String) {
            self.tag = tag
            self.place = place
            self.reason = reason
        }
    }

    static let linesPerPage = 12

    private struct Draft {
        var lines: [String] = []
        var marks: [LineMarks] = []
        var image: AssetPath?
        /// What `image` shows, in words (`# alt:`).
        var imageAlt: String?
        /// Pictures tagged before the line that takes `image` (on a pending draft only), with their alt
        /// text: each shown on a page of its own, in order.
        var earlierImages: [(path: AssetPath, alt: String?)] = []
        var tools: [Tool] = []
        var isEmpty: Bool { lines.isEmpty && image == nil && tools.isEmpty }

        /// A picture for the pending line: one already waiting is shown first, on its own page.
        mutating func add(image path: AssetPath) {
            if let waiting = image { earlierImages.append((waiting, imageAlt)) }
            image = path
            imageAlt = nil
        }

        /// `# caption:` for the last sound tagged before it.
        mutating func caption(_ words: String) {
            guard let index = tools.lastIndex(where: { $0.soundEffect != nil }) else { return }
            tools[index].args["caption"] = .string(words)
            tools[index].soundEffect?.caption = words
        }
    }

    private var pages: [Page] = []
    private var draft = Draft()
    /// What tags on lines without text asked for, waiting for the next line with text.
    private var pending = Draft()
    private var pendingClass: TextAttributes?
    private var breakPending = false
    /// The scene in effect (the background sound and picture).
    private(set) var scene: PageScene
    /// The background picture (and its alt text) and sound of the page being drafted.
    private var draftBackground: AssetPath?
    private var draftBackgroundAlt: String?
    private var draftLoop: AssetPath?
    /// True when the story has `# AUDIOLOOP` tags: every page then says which loop it has (or none), so a
    /// page reached by going back, a bookmark or resume plays what it did the first time.
    private let saysLoop: Bool

    init(scene: PageScene, saysLoop: Bool) {
        self.scene = scene
        self.saysLoop = saysLoop
        draftBackground = scene.background
        draftBackgroundAlt = scene.backgroundAlt
    }

    /// Pages for `lines`, then a choice page with `choices` when there are any (`choiceMarks`: the styles of
    /// their text, line `i` for choice `i`), or a question page asking `question` (the paragraph that leads to
    /// it its label, as a choice page's prompt, unless it has one), starting in `scene`.
    public static func pages(for lines: [Line], choices: [Choice], choiceMarks: [LineMarks] = [], question: Question? = nil,
                      scene: PageScene = PageScene(), saysLoop: Bool = false) throws(BadTag) -> [Page] {
        var pager = Pager(scene: scene, saysLoop: saysLoop)
        for line in lines { try pager.add(line) }
        return pager.finish(choices: choices, marks: choiceMarks, question: question)
    }

    /// The position of the first line tagged `# RESTART`: the story stops before it (Inky's player restarts
    /// there without showing the line), so the beat ends with the lines before it, and the end screen offers
    /// the restart.
    public static func restartLine(in lines: [Line]) -> Int? { lines.firstIndex { $0.tags.contains { PageTag($0) == .restart } } }

    private mutating func add(_ line: Line) throws(BadTag) {
        var backgroundChanged = false
        let tags = line.tags.map(PageTag.init)
        let altIsBackgrounds = PageTag.altIsBackgrounds(in: tags)
        scene.apply(line: tags)
        for (raw, tag) in zip(line.tags, tags) {
            switch tag {
            case .page: breakPending = true
            case .styleClass(let name): if let attributes = PageMarkup.attributes(forClass: name) { pendingClass = attributes }
            case .background: backgroundChanged = true
            case .alt(let words) where !altIsBackgrounds: pending.imageAlt = words
            case .caption(let words): pending.caption(words)
            default: break
            }
            guard let (field, value) = tag.asset else { continue }
            let path: AssetPath
            do {
                path = try AssetPath(validating: value)
            } catch {
                throw BadTag(tag: "# " + raw.trimmingTagSpaces(), place: line.place, reason: "\(field): \(error)")
            }
            switch tag {
            case .image: pending.add(image: path)
            case .sound: pending.tools.append(Self.sound(path, .pageEnter))
            case .tapSound: pending.tools.append(Self.sound(path, .tap))
            default: break
            }
        }
        let parsed = PageMarkup.parse(line.text)
        // A line of markup alone (`<br>`) shows nothing; its tags wait for the next line.
        guard !parsed.text.allSatisfy({ $0 == " " || $0 == "\t" }) else { return }
        if !pending.earlierImages.isEmpty {
            if !draft.lines.isEmpty { flush() }
            for image in pending.earlierImages { pictureOnly(image.path, alt: image.alt) }
            pending.earlierImages = []
        }
        let newPicture = pending.image != nil && draft.image != nil && pending.image != draft.image
        let newBackground = backgroundChanged && draft.image == nil && pending.image == nil && scene.background != draftBackground
        let newLoop = saysLoop && scene.loop != draftLoop
        if (breakPending || newPicture || newBackground || newLoop || draft.lines.count >= Self.linesPerPage) && !draft.lines.isEmpty { flush() }
        breakPending = false
        if draft.lines.isEmpty { (draftBackground, draftBackgroundAlt) = (scene.background, scene.backgroundAlt) }
        if let image = pending.image {
            draft.image = image
            draft.imageAlt = pending.imageAlt
        } else if let alt = pending.imageAlt, draft.imageAlt == nil {
            draft.imageAlt = alt  // the alt text of the page's picture, tagged after it
        }
        draft.tools += pending.tools
        var marks = parsed.marks(line: draft.lines.count) ?? LineMarks(line: draft.lines.count)
        if let attributes = pendingClass, !parsed.text.isEmpty {
            marks.spans.insert(TextSpan(from: 0, to: parsed.text.count, attributes: attributes), at: 0)
        }
        if !marks.isEmpty { draft.marks.append(marks) }
        draft.lines.append(parsed.text)
        draftLoop = scene.loop
        pending = Draft()
        pendingClass = nil
    }

    private static func sound(_ path: AssetPath, _ trigger: SoundTrigger) -> Tool {
        Tool(name: "sound_effect", args: ["sound_url": .string(path.value), "trigger": .string(trigger.rawValue)],
             soundEffect: SoundEffect(soundURL: path, trigger: trigger))
    }

    /// A page's tools: its own, and its background sound when the story has loops.
    private func tools(_ own: [Tool], loop: AssetPath?) -> [Tool] {
        guard saysLoop else { return own }
        return own + [(loop.map(BackgroundSound.play) ?? .stop).tool]
    }

    /// A page that is a picture alone (a title page without a title), for a picture tagged before another
    /// with no line between them.
    private mutating func pictureOnly(_ image: AssetPath, alt: String?) {
        pages.append(Page(id: "p\(pages.count + 1)", kind: .title(title: "", subtitle: nil), imageUrl: image, imageAlt: alt,
                          tools: tools([], loop: scene.loop)))
    }

    private mutating func flush() {
        pages.append(Page(id: "p\(pages.count + 1)", kind: .text(lines: draft.lines), imageUrl: draft.image ?? draftBackground,
                          imageAlt: draft.image != nil ? draft.imageAlt : draftBackgroundAlt, tools: tools(draft.tools, loop: draftLoop),
                          marks: draft.marks))
        draft = Draft()
    }

    private mutating func finish(choices: [Choice], marks: [LineMarks], question: Question?) -> [Page] {
        if !choices.isEmpty || question != nil {
            // The paragraph that leads to the choices is shown with them, as Inky's player does (their prompt),
            // not left on the page before; a page it leaves empty gives the choice page its sounds. A page
            // with a picture of its own keeps its paragraph too, beside its picture (the picture stays on the
            // page the author put it on; the choice page repeats the paragraph as its prompt).
            let image = pending.image ?? scene.background
            let prompt = draft.lines.last
            let keepsPage = draft.image != nil && draft.image != image
            var own = pending.tools
            if !keepsPage, !draft.lines.isEmpty {
                draft.lines.removeLast()
                draft.marks.removeAll { $0.line == draft.lines.count }
            }
            if draft.lines.isEmpty {
                own = draft.tools + own
            } else {
                flush()
            }
            for earlier in pending.earlierImages { pictureOnly(earlier.path, alt: earlier.alt) }
            let kind: PageKind
            if var question {
                if question.label == nil { question.label = prompt }
                kind = .question(question)
            } else {
                kind = .choice(prompt: prompt, choices: choices)
            }
            pages.append(Page(id: question == nil ? "choices" : "question", kind: kind, imageUrl: image,
                              imageAlt: pending.image != nil ? pending.imageAlt : scene.backgroundAlt, tools: tools(own, loop: scene.loop),
                              marks: question == nil ? marks : []))
            return pages
        }
        if !draft.lines.isEmpty { flush() }
        if var last = pages.popLast() {
            // Tags after the last line of an ending: they belong to its last page.
            // Pictures after it: the first on it when it has none, each other on a page of its own.
            var images = pending.earlierImages + (pending.image.map { [($0, pending.imageAlt)] } ?? [])
            if last.imageUrl == nil, !images.isEmpty {
                let first = images.removeFirst()
                last.imageUrl = first.path
                last.imageAlt = first.alt
            }
            last.tools.removeAll { $0.backgroundSound != nil }
            last.tools = tools(last.tools + pending.tools, loop: scene.loop)
            pages.append(last)
            for image in images { pictureOnly(image.path, alt: image.alt) }
        }
        return pages
    }
}
