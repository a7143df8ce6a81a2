extension Story {
    /// Runs the story to the end of the next line and returns it (with its newline). Errors go to `onError`;
    /// without a handler they are thrown.
    @discardableResult
    public func continueStory() throws(StoryError) -> String {
        if !hasValidatedExternals { try validateExternalBindings() }
        try continueInternal()
        try reportErrors()
        return state.currentText
    }

    /// Continues until a choice or the end, returning all the text.
    public func continueMaximally() throws(StoryError) -> String {
        var text = ""
        while canContinue { text += try continueStory() }
        return text
    }

    func reportErrors() throws(StoryError) {
        guard state.hasError || state.hasWarning else { return }
        if let onError {
            for e in state.currentErrors { onError(e, .error) }
            for w in state.currentWarnings { onError(w, .warning) }
            state.resetErrors()
            return
        }
        var text = "Ink had "
        if state.hasError {
            text += "\(state.currentErrors.count) error\(state.currentErrors.count == 1 ? "" : "s")"
            if state.hasWarning { text += " and " }
        }
        if state.hasWarning {
            text += "\(state.currentWarnings.count) warning\(state.currentWarnings.count == 1 ? "" : "s")"
        }
        text += ". It is strongly suggested that you assign an error handler to story.onError. The first issue was: "
        text += state.hasError ? state.currentErrors[0] : state.currentWarnings[0]
        throw StoryError(text)
    }

    func continueInternal() throws(StoryError) {
        recursiveContinueCount += 1
        defer { recursiveContinueCount -= 1 }
        guard canContinue else {
            throw StoryError("Can't continue - should check canContinue before calling Continue")
        }
        state.didSafeExit = false
        state.resetOutput()
        if recursiveContinueCount == 1 { state.variablesState.batchObserving = true }

        var endsInNewline = false
        sawLookaheadUnsafeFunctionAfterNewline = false
        var steps = 0
        repeat {
            do throws(StoryError) {
                steps += 1
                if steps > Story.maximumStepsPerLine {
                    throw StoryError(
                        "More than \(Story.maximumStepsPerLine) steps without finishing a line: the story loops without output?")
                }
                if state.outputStream.count > Story.maximumStackSize || state.evaluationStack.count > Story.maximumStackSize
                    || state.generatedChoices.count > Story.maximumStackSize || state.callStack.threads.count > Story.maximumStackSize {
                    throw StoryError(
                        "More than \(Story.maximumStackSize) pieces of output, values, choices or threads without finishing a line: the story loops?")
                }
                endsInNewline = try continueSingleStep()
            } catch {
                addError(error.message, isWarning: false)
                break
            }
            if endsInNewline { break }
        } while canContinue

        if endsInNewline || !canContinue {
            if snapshotAtLastNewline != nil { restoreStateSnapshot() }
            if !canContinue {
                if state.callStack.canPopThread {
                    addError("Thread available to pop, threads should always be flat by the end of evaluation?", isWarning: false)
                }
                if state.generatedChoices.isEmpty && !state.didSafeExit {
                    if state.callStack.canPop(.tunnel) {
                        addError("unexpectedly reached end of content. Do you need a '->->' to return from a tunnel?", isWarning: false)
                    } else if state.callStack.canPop(.function) {
                        addError("unexpectedly reached end of content. Do you need a '~ return'?", isWarning: false)
                    } else if !state.callStack.canPop {
                        addError("ran out of content. Do you need a '-> DONE' or '-> END'?", isWarning: false)
                    } else {
                        addError("unexpectedly reached end of content for unknown reason. Please debug compiler!", isWarning: false)
                    }
                }
            }
            state.didSafeExit = false
            sawLookaheadUnsafeFunctionAfterNewline = false
            if recursiveContinueCount == 1 { flushVariableChanges() }
        }
    }

    private func continueSingleStep() throws(StoryError) -> Bool {
        try step()
        if !canContinue && !state.callStack.elementIsEvaluateFromGame {
            try tryFollowDefaultInvisibleChoice()
        }
        if !state.inStringEvaluation {
            if let snapshot = snapshotAtLastNewline {
                let change = Story.newlineOutputStateChange(since: snapshot, now: state)
                if change == .extendedBeyondNewline || sawLookaheadUnsafeFunctionAfterNewline {
                    restoreStateSnapshot()
                    return true
                } else if change == .newlineRemoved {
                    discardSnapshot()
                }
            }
            if state.outputStreamEndsInNewline {
                if canContinue {
                    if snapshotAtLastNewline == nil { stateSnapshot() }
                } else {
                    discardSnapshot()
                }
            }
        }
        return false
    }

    enum OutputStateChange { case noChange, extendedBeyondNewline, newlineRemoved }

    /// How the output changed since the look-ahead's `snapshot` was taken at a newline. When the output was only
    /// appended to since, the appended objects say it (text that is not spaces and tabs goes beyond the
    /// newline); otherwise, and when a tag or the inside of one is involved, both texts are made and compared.
    /// Making the text at every step of the look-ahead was a tenth of `pajama test`'s time.
    static func newlineOutputStateChange(since snapshot: StoryState, now state: StoryState) -> OutputStateChange {
        if let appended = state.outputAppended(since: snapshot), let change = appendedOutputChange(appended, snapshot: snapshot) {
            return change
        }
        return newlineOutputStateChange(previousText: snapshot.currentText, currentText: state.currentText,
                                        previousTagCount: snapshot.currentTags.count, currentTagCount: state.currentTags.count)
    }

    /// The change `appended` makes to the output of `snapshot` (whose text ends with a newline: what follows
    /// a newline is cleaned as the start of a line, so the text before it stays as it was); nil when the
    /// texts must be compared: a tag appended, the snapshot's output ending inside a tag or not in a newline.
    private static func appendedOutputChange(_ appended: ArraySlice<InkObject>, snapshot: StoryState) -> OutputStateChange? {
        guard snapshot.currentText.utf8.last == 0x0A, !snapshot.outputStreamEndsInsideTag else { return nil }
        for object in appended {
            if object is Tag { return nil }
            if let command = object as? ControlCommand, command.kind == .beginTag || command.kind == .endTag { return nil }
            if let text = (object as? ValueObject)?.stringText, text.utf8.contains(where: { $0 != 0x20 && $0 != 0x09 }) {
                return .extendedBeyondNewline  // whatever follows: more text or tags only extend it
            }
        }
        return .noChange
    }

    static func newlineOutputStateChange(
        previousText: String, currentText: String, previousTagCount: Int, currentTagCount: Int
    ) -> OutputStateChange {
        // Walks the UTF-8 bytes in place (newline, space and tab are single bytes that never occur inside a
        // longer sequence): this runs at every step of the look-ahead past a newline.
        let previousCount = previousText.utf8.count
        let current = currentText.utf8
        guard previousCount > 0, current.count >= previousCount,
              current[current.index(current.startIndex, offsetBy: previousCount - 1)] == 0x0A
        else { return .newlineRemoved }
        let beyond = current.dropFirst(previousCount)
        if previousTagCount == currentTagCount && beyond.isEmpty { return .noChange }
        if currentTagCount > previousTagCount { return .extendedBeyondNewline }
        for c in beyond where c != 0x20 && c != 0x09 { return .extendedBeyondNewline }
        return .noChange
    }

    func stateSnapshot() {
        snapshotAtLastNewline = state
        state = StoryState(copying: state)
    }

    func restoreStateSnapshot() {
        guard let snapshot = snapshotAtLastNewline else { return }
        state = snapshot
        state.variablesState.callStack = state.callStack
        snapshotAtLastNewline = nil
    }

    func discardSnapshot() { snapshotAtLastNewline = nil }

    // MARK: Stepping

    func step() throws(StoryError) {
        var shouldAddToStream = true
        var pointer = state.currentPointer
        if pointer.isNull { return }
        var containerToEnter = pointer.resolve() as? Container
        while let container = containerToEnter {
            visitContainer(container, atStart: true)
            if container.content.isEmpty { break }
            pointer = .startOf(container)
            containerToEnter = pointer.resolve() as? Container
        }
        state.currentPointer = pointer

        var current = pointer.resolve()
        let isLogicOrFlowControl = try performLogicAndFlowControl(current)
        if state.currentPointer.isNull { return }
        if isLogicOrFlowControl { shouldAddToStream = false }

        if let choicePoint = current as? ChoicePoint {
            if let choice = try processChoice(choicePoint) { state.generatedChoices.append(choice) }
            current = nil
            shouldAddToStream = false
        }
        if current is Container { shouldAddToStream = false }

        if shouldAddToStream, var object = current {
            if let v = object as? ValueObject, case let .variablePointer(name, contextIndex) = v.value, contextIndex == -1 {
                object = ValueObject(.variablePointer(name: name, contextIndex: state.callStack.contextForVariable(named: name)))
            }
            if state.inExpressionEvaluation {
                state.pushEvaluationStack(object)
            } else {
                state.pushToOutputStream(object)
            }
        }

        try nextContent()

        if let command = current as? ControlCommand, command.kind == .startThread {
            state.callStack.pushThread()
        }
    }

    func visitContainer(_ container: Container, atStart: Bool) {
        if recordsEnteredContainers, container.name != nil { enteredContainers[ObjectIdentifier(container)] = container }
        if !container.countingAtStartOnly || atStart {
            if container.visitsShouldBeCounted { state.incrementVisitCount(for: container) }
            if container.turnIndexShouldBeCounted { state.recordTurnIndexVisit(to: container) }
        }
    }

    func visitChangedContainersDueToDivert() {
        let previous = state.previousPointer
        let pointer = state.currentPointer
        if pointer.isNull || pointer.index == -1 { return }
        var previousContainers: [Container] = []
        if !previous.isNull {
            var ancestor = (previous.resolve() as? Container) ?? previous.container
            while let a = ancestor {
                previousContainers.append(a)
                ancestor = a.parent
            }
        }
        guard var child = pointer.resolve() else { return }
        var ancestor = child.parent
        var allChildrenEnteredAtStart = true
        while let a = ancestor, !previousContainers.contains(where: { $0 === a }) || a.countingAtStartOnly {
            let enteringAtStart = !a.content.isEmpty && child === a.content[0] && allChildrenEnteredAtStart
            if !enteringAtStart { allChildrenEnteredAtStart = false }
            visitContainer(a, atStart: enteringAtStart)
            child = a
            ancestor = a.parent
        }
    }

    func nextContent() throws(StoryError) {
        state.previousPointer = state.currentPointer
        if !state.divertedPointer.isNull {
            state.currentPointer = state.divertedPointer
            state.divertedPointer = .null
            visitChangedContainersDueToDivert()
            if !state.currentPointer.isNull { return }
        }
        if !incrementContentPointer() {
            var didPop = false
            if state.callStack.canPop(.function) {
                try state.popCallStack(.function)
                if state.inExpressionEvaluation { state.pushEvaluationStack(VoidValue()) }
                didPop = true
            } else if state.callStack.canPopThread {
                try state.callStack.popThread()
                didPop = true
            } else {
                _ = state.tryExitFunctionEvaluationFromGame()
            }
            if didPop && !state.currentPointer.isNull { try nextContent() }
        }
    }

    func incrementContentPointer() -> Bool {
        var successful = true
        var pointer = state.callStack.currentElement.currentPointer
        pointer.index += 1
        while let container = pointer.container, pointer.index >= container.content.count {
            successful = false
            guard let next = container.parent, let indexInAncestor = next.content.firstIndex(where: { $0 === container })
            else { break }
            pointer = Pointer(container: next, index: indexInAncestor + 1)
            successful = true
        }
        if !successful { pointer = .null }
        state.callStack.currentElement.currentPointer = pointer
        return successful
    }
}
