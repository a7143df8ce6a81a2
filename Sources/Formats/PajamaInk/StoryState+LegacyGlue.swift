/// How stories compiled by ink 16 and 17 join text: with left and right glue, as ink's runtime did before
/// version 18 (ink's commit a478f1b, "Experimental new way of consuming excess newlines", April 2018; the
/// runtime then refused older stories). Left and right glue were written by that compiler around inline
/// logic, so newlines inside it are absorbed in one direction only; the whitespace a function writes at its
/// start and end is kept (ink 18 trims it instead, and compiles no left or right glue).
extension StoryState {
    func pushToOutputStreamLegacy(_ object: InkObject) {
        var include = true
        if let glue = object as? Glue {
            // A left glue closes the right glue of the same inline logic: the whitespace after that is removed.
            let matchingRight = glue.kind == .left ? matchingRightGlue(for: glue) : nil
            if glue.kind == .left || glue.kind == .both { trimNewlinesFromOutputStreamLegacy(stoppingAt: matchingRight) }
            include = glue.kind == .both || glue.kind == .right
        } else if let text = object as? ValueObject, text.stringText != nil {
            let glueIndex = currentGlueIndex
            if glueIndex != -1 {
                if text.isNewline {
                    trimWhitespace(from: glueIndex)
                    include = false
                } else if text.isNonWhitespace {
                    removeExistingGlue()
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

    /// The last glue of the output, up to the start of a string being built; -1 when none.
    private var currentGlueIndex: Int {
        let stream = outputStream
        for i in stride(from: stream.count - 1, through: 0, by: -1) {
            if stream[i] is Glue { return i }
            if stream[i] is ControlCommand { break }
        }
        return -1
    }

    /// The right glue written by the same inline logic as `left` (the same container), if still in the output.
    private func matchingRightGlue(for left: Glue) -> Glue? {
        let stream = outputStream
        for i in stride(from: stream.count - 1, through: 0, by: -1) {
            if let glue = stream[i] as? Glue, glue.kind == .right, glue.parent === left.parent { return glue }
            if stream[i] is ControlCommand { break }
        }
        return nil
    }

    private func trimNewlinesFromOutputStreamLegacy(stoppingAt rightGlue: Glue?) {
        var stream = outputStream
        var removeFrom = -1
        var rightGluePosition = -1
        var foundNonWhitespace = false
        var i = stream.count - 1
        while i >= 0 {
            let object = stream[i]
            let text = (object as? ValueObject).flatMap { $0.stringText != nil ? $0 : nil }
            if object is ControlCommand || (text?.isNonWhitespace ?? false) {
                foundNonWhitespace = true
                if rightGlue == nil { break }
            } else if let rightGlue, object === rightGlue {
                rightGluePosition = i
                break
            } else if let text, text.isNewline, !foundNonWhitespace {
                removeFrom = i
            }
            i -= 1
        }
        if removeFrom >= 0 {
            var j = removeFrom
            while j < stream.count {
                if let text = stream[j] as? ValueObject, text.stringText != nil { stream.remove(at: j) } else { j += 1 }
            }
        }
        // The right glue goes (it comes before the whitespace removed), and every right glue after it, whose
        // left glue is gone.
        if rightGlue != nil, rightGluePosition > -1 {
            var j = rightGluePosition
            while j < stream.count {
                if let glue = stream[j] as? Glue, glue.kind == .right { stream.remove(at: j) } else { j += 1 }
            }
        }
        currentFlow.replaceOutput(stream, changedFrom: 0)
        outputStreamDirty()
    }

    /// Removes the whitespace from the glue at `start` on.
    private func trimWhitespace(from start: Int) {
        var stream = outputStream
        var i = start
        while i < stream.count {
            if let text = stream[i] as? ValueObject, text.stringText != nil, !text.isNonWhitespace { stream.remove(at: i) } else { i += 1 }
        }
        currentFlow.replaceOutput(stream, changedFrom: start)
        outputStreamDirty()
    }
}
