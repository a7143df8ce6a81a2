/// The output stream of the current flow: what `currentText` and `currentTags` are made of, and how text,
/// glue and whitespace are pushed into it and trimmed (ink 18 and later; `StoryState+LegacyGlue` for the
/// left and right glue of ink 16 and 17).
extension StoryState {
    func outputStreamDirty() {
        cachedText = nil
        cachedTags = nil
        cachedEndsInsideTag = nil
    }

    func resetOutput(_ objects: [InkObject] = []) {
        outputStream = objects
    }

    var currentText: String {
        if let cachedText { return cachedText }
        var text = ""
        var inTag = false
        for object in outputStream {
            if !inTag, let s = (object as? ValueObject)?.stringText {
                text += s
            } else if let command = object as? ControlCommand {
                if command.kind == .beginTag { inTag = true } else if command.kind == .endTag { inTag = false }
            }
        }
        // ink 16-17's runtime gave the text as written (whitespace cleaning came with ink 18's trimming).
        let cleaned = story.usesLegacyGlue ? text : StoryState.cleanOutputWhitespace(text)
        cachedText = cleaned
        return cleaned
    }

    var currentTags: [String] {
        if let cachedTags { return cachedTags }
        var tags: [String] = []
        var inTag = false
        var text = ""
        for object in outputStream {
            if let command = object as? ControlCommand {
                if command.kind == .beginTag {
                    if inTag && !text.isEmpty {
                        tags.append(StoryState.cleanOutputWhitespace(text))
                        text = ""
                    }
                    inTag = true
                } else if command.kind == .endTag {
                    if !text.isEmpty {
                        tags.append(StoryState.cleanOutputWhitespace(text))
                        text = ""
                    }
                    inTag = false
                }
            } else if inTag {
                if let s = (object as? ValueObject)?.stringText { text += s }
            } else if let tag = object as? Tag, !tag.text.isEmpty {
                tags.append(tag.text)
            }
        }
        if !text.isEmpty { tags.append(StoryState.cleanOutputWhitespace(text)) }
        cachedTags = tags
        return tags
    }

    /// Collapses runs of spaces and tabs to one space and drops them at line starts and ends.
    /// Works on UTF-8 bytes in place (space, tab and newline are single bytes that never occur inside a
    /// longer sequence, so what is left is valid UTF-8): this runs at every step of the look-ahead past a
    /// newline, and appending byte by byte to an array was a sixteenth of `pajama test`'s time.
    static func cleanOutputWhitespace(_ text: String) -> String {
        var text = text
        return text.withUTF8 { input in
            String(unsafeUninitializedCapacity: input.count) { output in
                let space: UInt8 = 0x20, tab: UInt8 = 0x09, newline: UInt8 = 0x0A
                var written = 0
                var whitespaceStart = -1
                var startOfLine = 0
                for i in 0..<input.count {
                    let c = input[i]
                    if c == space || c == tab {
                        if whitespaceStart == -1 { whitespaceStart = i }
                        continue
                    }
                    if c != newline && whitespaceStart > 0 && whitespaceStart != startOfLine {
                        output[written] = space
                        written += 1
                    }
                    whitespaceStart = -1
                    if c == newline { startOfLine = i + 1 }
                    output[written] = c
                    written += 1
                }
                return written
            }
        }
    }

    var outputStreamEndsInNewline: Bool {
        for object in outputStream.reversed() {
            if object is ControlCommand { break }
            if let v = object as? ValueObject, v.stringText != nil {
                if v.isNewline { return true }
                if v.isNonWhitespace { break }
            }
        }
        return false
    }

    var outputStreamContainsContent: Bool {
        outputStream.contains { ($0 as? ValueObject)?.stringText != nil }
    }

    /// What was appended to the output since this state was copied from `other` (the look-ahead's snapshot),
    /// when nothing else changed: `other`'s output is then the head of this one's, unchanged. Nil otherwise.
    func outputAppended(since other: StoryState) -> ArraySlice<InkObject>? {
        guard let copied = currentFlow.copied, copied.from == ObjectIdentifier(other.currentFlow),
              copied.unchangedPrefix == other.outputStream.count
        else { return nil }
        return outputStream[copied.unchangedPrefix...]
    }

    /// True when the output ends inside a tag (a begun tag not yet ended).
    var outputStreamEndsInsideTag: Bool {
        if let cachedEndsInsideTag { return cachedEndsInsideTag }
        var inside = false
        for object in outputStream.reversed() {
            guard let command = object as? ControlCommand else { continue }
            if command.kind == .beginTag { inside = true; break }
            if command.kind == .endTag { break }
        }
        cachedEndsInsideTag = inside
        return inside
    }

    var inStringEvaluation: Bool {
        outputStream.reversed().contains { ($0 as? ControlCommand)?.kind == .beginString }
    }

    func pushToOutputStream(_ object: InkObject) {
        if let v = object as? ValueObject, let s = v.stringText, let parts = splitHeadTailWhitespace(s) {
            for part in parts { pushToOutputStreamIndividual(part) }
            outputStreamDirty()
            return
        }
        pushToOutputStreamIndividual(object)
        outputStreamDirty()
    }

    func popFromOutputStream(_ count: Int) {
        currentFlow.removeLastOutput(count)
        outputStreamDirty()
    }

    /// A string with newlines among the spaces and tabs at its head or tail, in parts: the text before the
    /// first such newline, one newline, the inner text, one newline, the text after; nil when it has none.
    /// On UTF-8 bytes (newline, space and tab are single bytes, never inside a longer sequence).
    private func splitHeadTailWhitespace(_ string: String) -> [ValueObject]? {
        let s = Array(string.utf8)
        let newline: UInt8 = 0x0A, space: UInt8 = 0x20, tab: UInt8 = 0x09
        var headFirst = -1, headLast = -1
        for (i, c) in s.enumerated() {
            if c == newline {
                if headFirst == -1 { headFirst = i }
                headLast = i
            } else if c == space || c == tab {
                continue
            } else {
                break
            }
        }
        var tailLast = -1, tailFirst = -1
        for i in stride(from: s.count - 1, through: 0, by: -1) {
            let c = s[i]
            if c == newline {
                if tailLast == -1 { tailLast = i }
                tailFirst = i
            } else if c == space || c == tab {
                continue
            } else {
                break
            }
        }
        if headFirst == -1 && tailLast == -1 { return nil }
        func text(_ range: Range<Int>) -> ValueObject {
            ValueObject(.string(String(decoding: s[range], as: UTF8.self)))
        }
        var parts: [ValueObject] = []
        var innerStart = 0
        var innerEnd = s.count
        if headFirst != -1 {
            if headFirst > 0 { parts.append(text(0..<headFirst)) }
            parts.append(ValueObject(.string("\n")))
            innerStart = headLast + 1
        }
        if tailLast != -1 { innerEnd = tailFirst }
        if innerEnd > innerStart { parts.append(text(innerStart..<innerEnd)) }
        if tailLast != -1 && tailFirst > headLast {
            parts.append(ValueObject(.string("\n")))
            if tailLast < s.count - 1 { parts.append(text((tailLast + 1)..<s.count)) }
        }
        return parts
    }

    private func pushToOutputStreamIndividual(_ object: InkObject) {
        if story.usesLegacyGlue { return pushToOutputStreamLegacy(object) }
        var include = true
        if object is Glue {
            trimNewlinesFromOutputStream()
        } else if let text = object as? ValueObject, text.stringText != nil {
            var functionTrimIndex = -1
            let current = callStack.currentElement
            if current.type == .function { functionTrimIndex = current.functionStartInOutputStream }
            var glueTrimIndex = -1
            let stream = outputStream
            for i in stride(from: stream.count - 1, through: 0, by: -1) {
                let o = stream[i]
                if o is Glue {
                    glueTrimIndex = i
                    break
                } else if (o as? ControlCommand)?.kind == .beginString {
                    if i >= functionTrimIndex { functionTrimIndex = -1 }
                    break
                }
            }
            let trimIndex: Int
            if glueTrimIndex != -1 && functionTrimIndex != -1 {
                trimIndex = min(functionTrimIndex, glueTrimIndex)
            } else if glueTrimIndex != -1 {
                trimIndex = glueTrimIndex
            } else {
                trimIndex = functionTrimIndex
            }
            if trimIndex != -1 {
                if text.isNewline {
                    include = false
                } else if text.isNonWhitespace {
                    if glueTrimIndex > -1 { removeExistingGlue() }
                    if functionTrimIndex > -1 {
                        let t = callStack.threads.count - 1
                        for i in stride(from: callStack.threads[t].callstack.count - 1, through: 0, by: -1) {
                            if callStack.threads[t].callstack[i].type == .function {
                                callStack.threads[t].callstack[i].functionStartInOutputStream = -1
                            } else {
                                break
                            }
                        }
                    }
                }
            } else if text.isNewline {
                if outputStreamEndsInNewline || !outputStreamContainsContent { include = false }
            }
        }
        if include {
            currentFlow.appendOutput(object)
            outputStreamDirty()
        }
    }

    private func trimNewlinesFromOutputStream() {
        var removeFrom = -1
        let stream = outputStream
        var i = stream.count - 1
        while i >= 0 {
            let o = stream[i]
            if o is ControlCommand { break }
            if let t = o as? ValueObject, t.stringText != nil {
                if t.isNonWhitespace { break }
                if t.isNewline { removeFrom = i }
            }
            i -= 1
        }
        if removeFrom >= 0 {
            var kept = Array(stream[..<removeFrom])
            for o in stream[removeFrom...] where !((o as? ValueObject)?.stringText != nil) { kept.append(o) }
            currentFlow.replaceOutput(kept, changedFrom: removeFrom)
        }
        outputStreamDirty()
    }

    /// Removes every glue back to the start of a string being built (non-whitespace text came); the
    /// legacy glue rules use it too.
    func removeExistingGlue() {
        var stream = outputStream
        var i = stream.count - 1
        var lowestRemoved = stream.count
        while i >= 0 {
            if stream[i] is Glue {
                stream.remove(at: i)
                lowestRemoved = i
            } else if stream[i] is ControlCommand {
                break
            }
            i -= 1
        }
        currentFlow.replaceOutput(stream, changedFrom: lowestRemoved)
        outputStreamDirty()
    }

    func trimWhitespaceFromFunctionEnd() {
        var start = callStack.currentElement.functionStartInOutputStream
        if start == -1 { start = 0 }
        var i = outputStream.count - 1
        while i >= start {
            guard let text = outputStream[i] as? ValueObject, text.stringText != nil else {
                i -= 1
                continue
            }
            if text.isNewline || text.isInlineWhitespace {
                currentFlow.removeOutput(at: i)
                outputStreamDirty()
            } else {
                break
            }
            i -= 1
        }
    }
}
