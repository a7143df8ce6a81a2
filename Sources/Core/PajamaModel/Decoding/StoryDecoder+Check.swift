extension StoryDecoder {
    /// Holds a beat that a source made itself (`StorySource.madeBeat`) to the rules `decodeBeat` holds a beat
    /// file to, so a made beat the decoder would refuse is refused the same way, without being written and
    /// parsed: valid ids, 1 to `maximumPages` pages with distinct non-empty ids, a choice page only last, with
    /// 1 to 9 choices (a beat with an `origin`, made by its source as it is read: up to `madeChoiceRange`'s bound), texts of at most `maximumTextLength` characters, marks within the lines they can style
    /// (`PageKind.markableLineCount`), steps of -1 or more. (Asset paths are `AssetPath`s: checked when they were made.)
    public static func check(_ beat: Beat, file: String, expectedId: String? = nil) throws(StoryFormatError) {
        // The same checks in the same order as `decodeBeat`, with the same words, paths, beat and page.
        func error(_ path: String, _ message: String, beat beatId: String? = beat.id, page: String? = nil) -> StoryFormatError {
            StoryFormatError(file: file, beatId: beatId, pageId: page, path: path, message: message)
        }
        func invalidId(_ id: String) -> String {
            "the beat id \"\(StoryFormatError.printable(id))\" is not valid (1 to 128 of A-Z a-z 0-9 _ -)"
        }
        guard StoryManifest.isValidId(beat.id) else { throw error("id", invalidId(beat.id), beat: expectedId) }
        if let expectedId, expectedId != beat.id {
            throw error("id", "the beat id \"\(beat.id)\" does not match its file name \"\(expectedId).json\"", beat: expectedId)
        }
        if let next = beat.nextBeatId, !StoryManifest.isValidId(next) { throw error("nextBeatId", invalidId(next)) }
        if beat.pages.isEmpty { throw error("pages", "a beat needs at least one page") }
        if beat.pages.count > maximumPages { throw error("pages", "more than \(maximumPages) pages") }
        var seenIds = Set<String>()
        for (index, page) in beat.pages.enumerated() {
            let at = "pages[\(index)]"
            let pageId = StoryFormatError.printable(page.id, limit: 128)
            func text(_ value: String, _ path: String, limit: Int = maximumTextLength) throws(StoryFormatError) {
                let count = value.unicodeScalars.count
                if count > limit { throw error(path, "the text is \(count) characters long (at most \(limit))", page: pageId) }
            }
            try text(page.id, at + ".id", limit: 128)
            if page.id.isEmpty { throw error(at + ".id", "a page id cannot be empty", page: pageId) }
            switch page.kind {
            case .title(let title, let subtitle):
                try text(title, at + ".title")
                if let subtitle { try text(subtitle, at + ".subtitle") }
            case .text(let lines):
                if lines.isEmpty { throw error(at + ".lines", "a text page needs at least one line", page: pageId) }
                for (number, line) in lines.enumerated() { try text(line, at + ".lines[\(number)]") }
            case .choice(let prompt, let choices):
                if let prompt { try text(prompt, at + ".prompt") }
                let choiceRange = choiceRange(made: beat.origin != nil)
                guard choiceRange.contains(choices.count) else {
                    throw error(at + ".choices", "a choice page needs 1 to \(choiceRange.upperBound) choices (found \(choices.count))", page: pageId)
                }
                for (number, choice) in choices.enumerated() {
                    try text(choice.text, at + ".choices[\(number)].text")
                    guard StoryManifest.isValidId(choice.targetBeatId) else {
                        throw error(at + ".choices[\(number)].targetBeatId", invalidId(choice.targetBeatId), page: pageId)
                    }
                }
            case .question(let question):
                if let label = question.label { try text(label, at + ".label") }
                if let test = question.testAnswer { try text(test, at + ".testAnswer") }
                guard StoryManifest.isValidId(question.answerBeatPrefix), question.answerBeatPrefix.utf8.count <= 20 else {
                    throw error(at + ".answerBeat", "an answer beat prefix is 1 to 20 of A-Z a-z 0-9 _ -", page: pageId)
                }
                if case .number(let minimum, let maximum, _) = question.kind, !(minimum <= maximum) {
                    throw error(at + ".maximum", "the maximum is below the minimum", page: pageId)
                }
            }
            for (number, tool) in page.tools.enumerated() { try text(tool.name, at + ".tools[\(number)].name", limit: 128) }
            if !page.marks.isEmpty {
                let lineCount = page.kind.markableLineCount
                for (number, marks) in page.marks.enumerated() {
                    let path = at + ".marks[\(number)]"
                    guard (0..<lineCount).contains(marks.line) else {
                        throw error(path + ".line", "the page has no line \(marks.line) (it has \(lineCount))", page: pageId)
                    }
                    for (item, span) in marks.spans.enumerated() where span.from < 0 || span.to < span.from {
                        throw error(path + ".spans[\(item)]", "a span runs from 0 or more to no less than its start", page: pageId)
                    }
                    for (item, span) in marks.spans.enumerated() {
                        guard let color = span.color, TextColor.alpha(color) == 0 else { continue }
                        throw error(path + ".spans[\(item)].color", "\"\(TextColor.hex(color))\" is not a colour (fully transparent: leave the colour out)", page: pageId)
                    }
                    for (item, offset) in marks.breaks.enumerated() where offset < 0 {
                        throw error(path + ".breaks[\(item)]", "a break is at an offset of 0 or more", page: pageId)
                    }
                }
            }
            guard seenIds.insert(page.id).inserted else {
                throw error(at + ".id", "the page id \"\(StoryFormatError.printable(page.id))\" is used twice in this beat", page: pageId)
            }
            if case .choice = page.kind, index != beat.pages.count - 1 {
                throw error(at, "a choice page must be the last page of its beat (it is page \(index + 1) of \(beat.pages.count))", page: pageId)
            }
            if case .question = page.kind, index != beat.pages.count - 1 {
                throw error(at, "a question page must be the last page of its beat (it is page \(index + 1) of \(beat.pages.count))", page: pageId)
            }
        }
        if let origin = beat.origin, origin.steps.contains(where: { $0 < BeatOrigin.answered }) {
            throw error("origin.steps", "the steps are choice indexes (0 or more), -1 or -2, separated by commas")
        }
    }
}
