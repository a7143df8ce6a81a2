import PajamaJSON

/// Turns the bytes of `story.json` and `beats/<id>.json` into the model, or into a `StoryFormatError`
/// that names the file, beat, page and field.
public enum StoryDecoder {
    /// Largest story.json or beat file accepted, in bytes.
    public static let maximumFileSize = 4 * 1024 * 1024
    /// Longest text line, title or choice text, in characters.
    public static let maximumTextLength = 10_000
    /// Most pages in one beat.
    public static let maximumPages = 1_000
    /// Choices on a choice page of a Pajama story's own beat file (the format's contract: the keys 1-9).
    public static let choiceRange = 1...9
    /// Choices on a choice page of a beat a story source made as it is read (an ink or Twine story's: a beat
    /// with an `origin`): every choice the story offers, to this bound (the reader scrolls the list and takes
    /// numbers of two digits and more, docs/reader.md).
    public static let madeChoiceRange = 1...1_000

    /// The choices a choice page may have: a made beat's (`origin`) as many as its story offers, a beat file's 1 to 9.
    public static func choiceRange(made: Bool) -> ClosedRange<Int> { made ? madeChoiceRange : choiceRange }

    // MARK: story.json

    /// Decodes `story.json`; throws its first problem (`manifestProblems` gives them all).
    public static func decodeManifest(_ bytes: [UInt8], file: String = "story.json") throws(StoryFormatError) -> StoryManifest {
        var problems: [StoryFormatError] = []
        let manifest = decodeManifest(bytes, file: file, problems: &problems)
        if let first = problems.first { throw first }
        return manifest!
    }

    /// Every problem of `story.json`, field by field (`pajama validate`).
    public static func manifestProblems(_ bytes: [UInt8], file: String = "story.json") -> [StoryFormatError] {
        var problems: [StoryFormatError] = []
        _ = decodeManifest(bytes, file: file, problems: &problems)
        return problems
    }

    /// `body`'s value, or nil with its problem added to `problems` (each field is decoded so, and every
    /// problem in a file is reported, not only the first).
    private static func checked<Value>(_ problems: inout [StoryFormatError], _ body: () throws(StoryFormatError) -> Value) -> Value? {
        do { return try body() } catch {
            problems.append(error)
            return nil
        }
    }

    /// The manifest, or nil, with every problem found added to `problems`.
    private static func decodeManifest(_ bytes: [UInt8], file: String, problems: inout [StoryFormatError]) -> StoryManifest? {
        let root: JSONCursor
        do { root = try parse(bytes, file: file) } catch {
            problems.append(error)
            return nil
        }
        let format: Int? = checked(&problems) { () throws(StoryFormatError) -> Int in
            let format = try root.field("format").integer()
            guard format == StoryManifest.supportedFormat else {
                throw try root.field("format").error(
                    "unsupported format version \(format) (this reader understands version \(StoryManifest.supportedFormat))")
            }
            return format
        }
        // A format this reader does not understand: the rest would only be guesses.
        guard let format else { return nil }
        let id: String? = checked(&problems) { () throws(StoryFormatError) -> String in try root.field("id").identifier(what: "story id") }
        let title: String? = checked(&problems) { () throws(StoryFormatError) -> String in try root.field("title").text(limit: 500) }
        let author: String?? = checked(&problems) { () throws(StoryFormatError) -> String? in try root.optionalField("author")?.text(limit: 500) }
        let description: String?? = checked(&problems) { () throws(StoryFormatError) -> String? in
            try root.optionalField("description")?.text(limit: 2000)
        }
        let version: String?? = checked(&problems) { () throws(StoryFormatError) -> String? in try root.optionalField("version")?.text(limit: 128) }
        let startBeatId: String? = checked(&problems) { () throws(StoryFormatError) -> String in try root.field("startBeatId").identifier(what: "beat id") }
        let beats: [String]?? = checked(&problems) { () throws(StoryFormatError) -> [String]? in
            guard let list = try root.optionalField("beats") else { return nil }
            var seen = Set<String>()
            var ids: [String] = []
            for item in try list.elements() {
                let beatId = try item.identifier(what: "beat id")
                guard seen.insert(beatId).inserted else { throw item.error("the beat id \"\(beatId)\" is listed twice") }
                ids.append(beatId)
            }
            return ids
        }
        let presentation: (lineByLine: Bool, theme: StoryTheme?)? = checked(&problems) { () throws(StoryFormatError) -> (lineByLine: Bool, theme: StoryTheme?) in
            guard let presentation = try root.optionalField("presentation") else { return (false, nil) }
            let lineByLine = try presentation.optionalField("lineByLine")?.bool() ?? false
            // A theme this reader does not know is ignored (a newer reader's look), as unknown tools are.
            let theme = try presentation.optionalField("theme").flatMap { cursor throws(StoryFormatError) in StoryTheme(rawValue: try cursor.string()) }
            return (lineByLine, theme)
        }
        var criticality: [AssetPath: Criticality] = [:]
        let table: JSONCursor?? = checked(&problems) { () throws(StoryFormatError) -> JSONCursor? in
            guard let assets = try root.optionalField("assets") else { return nil }
            return try assets.optionalField("criticality")
        }
        let defaultCriticality: Criticality?? = checked(&problems) { () throws(StoryFormatError) -> Criticality? in
            guard let assets = try root.optionalField("assets"), let entry = try assets.optionalField("defaultCriticality") else { return nil }
            let name = try entry.string()
            guard let level = Criticality(name: name) else {
                throw entry.error("unknown criticality \"\(StoryFormatError.printable(name))\" (expected optional, important or critical)")
            }
            return level
        }
        if let table = table ?? nil, let keys = checked(&problems, { () throws(StoryFormatError) -> [String] in try table.object().map(\.0).sorted() }) {
            for key in keys {
                _ = checked(&problems) { () throws(StoryFormatError) -> Void in
                    let entry = try table.field(key)
                    let path: AssetPath
                    do { path = try AssetPath(validating: key) } catch {
                        throw entry.error("invalid asset path \"\(StoryFormatError.printable(key))\": \(error)")
                    }
                    let name = try entry.string()
                    guard let level = Criticality(name: name) else {
                        throw entry.error("unknown criticality \"\(StoryFormatError.printable(name))\" (expected optional, important or critical)")
                    }
                    criticality[path] = level
                }
            }
        }
        guard problems.isEmpty, let id, let title, let author, let description, let version, let startBeatId, let beats, let presentation,
            let defaultCriticality
        else { return nil }
        return StoryManifest(
            format: format, id: id, title: title, author: author, version: version, startBeatId: startBeatId,
            beats: beats, lineByLine: presentation.lineByLine, criticality: criticality, defaultCriticality: defaultCriticality,
            theme: presentation.theme, description: description)
    }

    // MARK: beats/<id>.json

    /// Decodes one beat file. When `expectedId` is given, the beat's `id` must equal it. Throws the file's
    /// first problem (`beatProblems` gives them all).
    public static func decodeBeat(_ bytes: [UInt8], file: String, expectedId: String? = nil) throws(StoryFormatError) -> Beat {
        var problems: [StoryFormatError] = []
        let beat = decodeBeat(bytes, file: file, expectedId: expectedId, problems: &problems)
        if let first = problems.first { throw first }
        return beat!
    }

    /// Every problem of a beat file, in the order of the file (`pajama validate`): the beat's own fields, and
    /// each page's first problem (a page that cannot be read is skipped, and the pages after it are checked).
    public static func beatProblems(_ bytes: [UInt8], file: String, expectedId: String? = nil) -> [StoryFormatError] {
        var problems: [StoryFormatError] = []
        _ = decodeBeat(bytes, file: file, expectedId: expectedId, problems: &problems)
        return problems
    }

    /// The beat, or nil, with every problem found added to `problems`.
    private static func decodeBeat(_ bytes: [UInt8], file: String, expectedId: String?, problems: inout [StoryFormatError]) -> Beat? {
        var root: JSONCursor
        do { root = try parse(bytes, file: file, beatId: expectedId) } catch {
            problems.append(error)
            return nil
        }
        let id: String? = checked(&problems) { () throws(StoryFormatError) -> String in
            let id = try root.field("id").identifier(what: "beat id")
            if let expectedId, expectedId != id {
                throw try root.field("id").error("the beat id \"\(id)\" does not match its file name \"\(expectedId).json\"")
            }
            return id
        }
        if let id { root.beatId = id }
        let nextBeatId: String?? = checked(&problems) { () throws(StoryFormatError) -> String? in try root.optionalField("nextBeatId")?.identifier(what: "beat id") }
        let pageList: [JSONCursor]? = checked(&problems) { () throws(StoryFormatError) -> [JSONCursor] in
            let list = try root.field("pages").elements()
            if list.isEmpty { throw try root.field("pages").error("a beat needs at least one page") }
            if list.count > maximumPages { throw try root.field("pages").error("more than \(maximumPages) pages") }
            return list
        }
        var pages: [Page] = []
        var seenIds = Set<String>()
        let choices = choiceRange(made: (try? root.optionalField("origin")) != nil)
        for (index, var cursor) in (pageList ?? []).enumerated() {
            let page: Page? = checked(&problems) { () throws(StoryFormatError) -> Page in
                if let pageIdCursor = try cursor.optionalField("id"), case .string(let pageId) = pageIdCursor.value {
                    cursor.pageId = StoryFormatError.printable(pageId, limit: 128)
                }
                let page = try decodePage(cursor, choices: choices)
                guard seenIds.insert(page.id).inserted else {
                    throw try cursor.field("id").error("the page id \"\(StoryFormatError.printable(page.id))\" is used twice in this beat")
                }
                if case .choice = page.kind, index != pageList!.count - 1 {
                    throw cursor.error("a choice page must be the last page of its beat (it is page \(index + 1) of \(pageList!.count))")
                }
                if case .question = page.kind, index != pageList!.count - 1 {
                    throw cursor.error("a question page must be the last page of its beat (it is page \(index + 1) of \(pageList!.count))")
                }
                return page
            }
            if let page { pages.append(page) }
        }
        let origin: BeatOrigin?? = checked(&problems) { () throws(StoryFormatError) -> BeatOrigin? in
            try root.optionalField("origin").map { cursor throws(StoryFormatError) in try decodeOrigin(cursor) }
        }
        guard problems.isEmpty, let id, let nextBeatId, let origin else { return nil }
        return Beat(id: id, pages: pages, nextBeatId: nextBeatId, origin: origin)
    }

    /// A made beat's `origin` (BeatOrigin): `{"seed": 7, "steps": "0,2", "state": "...", "version": "...",
    /// "stopped": "..."}` (`stopped` only where the runtime stopped; the steps may also be an array, `[0, 2]`).
    private static func decodeOrigin(_ cursor: JSONCursor) throws(StoryFormatError) -> BeatOrigin {
        var steps: [Int] = []
        let stepsCursor = try cursor.field("steps")
        if case .string(let text) = stepsCursor.value {
            // As made beats write them: "0,2,-1".
            guard let parsed = BeatOrigin.steps(fromText: text) else {
                throw stepsCursor.error("the steps are choice indexes (0 or more), -1 or -2, separated by commas")
            }
            steps = parsed
        } else {
            for step in try stepsCursor.elements() {
                let value = try step.integer()
                guard value >= BeatOrigin.answered else { throw step.error("a step is a choice index (0 or more), -1 or -2") }
                steps.append(value)
            }
        }
        return BeatOrigin(
            seed: try cursor.field("seed").integer(), steps: steps, state: try cursor.optionalField("state")?.string(),
            version: try cursor.optionalField("version")?.string(), stopped: try cursor.optionalField("stopped")?.string(),
            loop: try cursor.optionalField("loop")?.string(), background: try cursor.optionalField("background")?.string(),
            backgroundAlt: try cursor.optionalField("backgroundAlt")?.string(), answers: try decodeAnswers(cursor))
    }

    private static func decodeAnswers(_ cursor: JSONCursor) throws(StoryFormatError) -> [String]? {
        guard let list = try cursor.optionalField("answers") else { return nil }
        var answers: [String] = []
        for item in try list.elements() { answers.append(try item.text(limit: maximumTextLength)) }
        return answers
    }

    private static func decodePage(_ cursor: JSONCursor, choices choiceRange: ClosedRange<Int>) throws(StoryFormatError) -> Page {
        let id = try cursor.field("id").text(limit: 128)
        if id.isEmpty { throw try cursor.field("id").error("a page id cannot be empty") }
        let typeCursor = try cursor.field("type")
        let type = try typeCursor.string()
        let kind: PageKind
        switch type {
        case "title":
            kind = .title(
                title: try cursor.field("title").text(limit: maximumTextLength),
                subtitle: try cursor.optionalField("subtitle")?.text(limit: maximumTextLength))
        case "text":
            let lineCursor = try cursor.field("lines")
            let lines = try lineCursor.elements()
            if lines.isEmpty { throw lineCursor.error("a text page needs at least one line") }
            var texts: [String] = []
            for line in lines { texts.append(try line.text(limit: maximumTextLength)) }
            kind = .text(lines: texts)
        case "choice":
            let prompt = try cursor.optionalField("prompt")?.text(limit: maximumTextLength)
            let choiceCursor = try cursor.field("choices")
            let items = try choiceCursor.elements()
            guard choiceRange.contains(items.count) else {
                throw choiceCursor.error("a choice page needs 1 to \(choiceRange.upperBound) choices (found \(items.count))")
            }
            var choices: [Choice] = []
            for item in items {
                choices.append(Choice(
                    text: try item.field("text").text(limit: maximumTextLength),
                    targetBeatId: try item.field("targetBeatId").identifier(what: "beat id"),
                    soundURL: try item.optionalField("sound_url")?.assetPath()))
            }
            kind = .choice(prompt: prompt, choices: choices)
        case "question":
            let answerCursor = try cursor.field("answer")
            let questionKind: Question.Kind
            switch try answerCursor.string() {
            case "text": questionKind = .text(allowsBlank: try cursor.optionalField("allowBlank")?.bool() ?? false)
            case "number":
                let minimum = try cursor.field("minimum").number(), maximum = try cursor.field("maximum").number()
                guard minimum <= maximum else { throw try cursor.field("maximum").error("the maximum is below the minimum") }
                questionKind = .number(minimum: minimum, maximum: maximum, wholeNumbers: try cursor.optionalField("whole")?.bool() ?? false)
            default: throw answerCursor.error("an answer is \"text\" or \"number\"")
            }
            let prefixCursor = try cursor.field("answerBeat")
            let prefix = try prefixCursor.identifier(what: "beat id")
            guard prefix.utf8.count <= 20 else { throw prefixCursor.error("an answer beat prefix is at most 20 characters") }
            kind = .question(Question(
                kind: questionKind, label: try cursor.optionalField("label")?.text(limit: maximumTextLength), answerBeatPrefix: prefix,
                testAnswer: try cursor.optionalField("testAnswer")?.text(limit: maximumTextLength)))
        default:
            throw typeCursor.error("unknown page type \"\(StoryFormatError.printable(type))\" (expected title, text, choice or question)")
        }
        let imageUrl = try cursor.optionalField("imageUrl")?.assetPath()
        let imageAlt = try cursor.optionalField("imageAlt")?.text(limit: maximumTextLength)
        var tools: [Tool] = []
        if let toolList = try cursor.optionalField("tools") {
            for item in try toolList.elements() { tools.append(try decodeTool(item)) }
        }
        var marks: [LineMarks] = []
        if let markList = try cursor.optionalField("marks") {
            for item in try markList.elements() { marks.append(try decodeMarks(item, lineCount: kind.markableLineCount)) }
        }
        return Page(id: id, kind: kind, imageUrl: imageUrl, imageAlt: imageAlt, tools: tools, marks: marks)
    }

    /// One entry of a text page's `marks` (docs/story-format.md, "Styled text"):
    /// `{"line": 0, "spans": [{"from": 0, "to": 4, "style": ["bold"], "color": "#cc3300"}], "breaks": [9], "align": "center"}`.
    private static func decodeMarks(_ cursor: JSONCursor, lineCount: Int) throws(StoryFormatError) -> LineMarks {
        let lineCursor = try cursor.field("line")
        let line = try lineCursor.integer()
        guard (0..<lineCount).contains(line) else { throw lineCursor.error("the page has no line \(line) (it has \(lineCount))") }
        var marks = LineMarks(line: line)
        if let spans = try cursor.optionalField("spans") {
            for item in try spans.elements() {
                let from = try item.field("from").integer(), to = try item.field("to").integer()
                guard from >= 0, to >= from else { throw item.error("a span runs from 0 or more to no less than its start") }
                var attributes = TextAttributes()
                for name in try item.field("style").elements() {
                    let text = try name.string()
                    // An unknown style is ignored (a newer reader's), as unknown tools are.
                    if let known = TextAttributes.names.first(where: { $0.0 == text }) { attributes.insert(known.1) }
                }
                var color: UInt32?
                if let colorCursor = try item.optionalField("color") {
                    let text = try colorCursor.string()
                    guard text.hasPrefix("#"), let value = TextColor.parse(text) else {
                        throw colorCursor.error("\"\(StoryFormatError.printable(text))\" is not a colour (expected #rrggbb, #rgb or #rrggbbaa, not fully transparent)")
                    }
                    color = value
                }
                marks.spans.append(TextSpan(from: from, to: to, attributes: attributes, color: color))
            }
        }
        if let alignCursor = try cursor.optionalField("align") {
            let text = try alignCursor.string()
            guard let alignment = TextAlignment(rawValue: text) else {
                throw alignCursor.error("\"\(StoryFormatError.printable(text))\" is not an alignment (expected left, center or right)")
            }
            marks.alignment = alignment
        }
        if let breaks = try cursor.optionalField("breaks") {
            for item in try breaks.elements() {
                let offset = try item.integer()
                guard offset >= 0 else { throw item.error("a break is at an offset of 0 or more") }
                marks.breaks.append(offset)
            }
        }
        return marks
    }

    private static func decodeTool(_ cursor: JSONCursor) throws(StoryFormatError) -> Tool {
        let name = try cursor.field("name").text(limit: 128)
        var args: [String: JSON] = [:]
        let argsCursor = try cursor.optionalField("args")
        if let argsCursor { args = Dictionary(try argsCursor.object(), uniquingKeysWith: { first, _ in first }) }
        if name == BackgroundSound.toolName {
            guard let url = try argsCursor?.optionalField("sound_url") else { return Tool(name: name, args: args, backgroundSound: .stop) }
            return Tool(name: name, args: args, backgroundSound: .play(try url.assetPath()))
        }
        guard name == "sound_effect" else { return Tool(name: name, args: args) }
        guard let argsCursor else { throw try cursor.field("args").error("a sound_effect needs args") }
        let soundURL = try argsCursor.field("sound_url").assetPath()
        let trigger = try argsCursor.field("trigger").string()
        guard let known = SoundTrigger(rawValue: trigger) else { return Tool(name: name, args: args) }
        let caption = try argsCursor.optionalField("caption")?.text(limit: maximumTextLength)
        return Tool(name: name, args: args, soundEffect: SoundEffect(soundURL: soundURL, trigger: known, caption: caption))
    }

    // MARK: Parsing

    private static func parse(_ bytes: [UInt8], file: String, beatId: String? = nil) throws(StoryFormatError) -> JSONCursor {
        if bytes.count > maximumFileSize {
            throw StoryFormatError(file: file, beatId: beatId, message: "the file is \(bytes.count) bytes (at most \(maximumFileSize))")
        }
        do {
            return JSONCursor(value: try JSONParser.parse(bytes), path: "", file: file, beatId: beatId)
        } catch {
            throw StoryFormatError(file: file, beatId: beatId, message: "not valid JSON: \(error)")
        }
    }
}
