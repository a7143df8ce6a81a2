import PajamaBasics
extension Story {
    func processChoice(_ choicePoint: ChoicePoint) throws(StoryError) -> Choice? {
        var show = true
        var keptBack: WeighedChoice.Outcome?
        if choicePoint.hasCondition {
            let condition = try state.popEvaluationStack()
            if !(try isTruthy(condition)) {
                show = false
                keptBack = .conditionFalse
            }
        }
        var startText = ""
        var choiceOnlyText = ""
        var tags: [String] = []
        if choicePoint.hasChoiceOnlyContent { choiceOnlyText = try popChoiceStringAndTags(&tags) }
        if choicePoint.hasStartContent { startText = try popChoiceStringAndTags(&tags) }
        if choicePoint.onceOnly {
            guard let target = choicePoint.choiceTarget else {
                throw StoryError("Choice target not found: \(choicePoint.pathOnChoiceStorage)")
            }
            if try state.visitCount(for: target) > 0 {
                show = false
                keptBack = keptBack ?? .alreadyTaken
            }
        }
        if recordsWeighedChoices, !choicePoint.isInvisibleDefault {
            let key = WeighedChoice.Key(point: ObjectIdentifier(choicePoint), outcome: keptBack ?? .offered)
            if everWeighed.insert(key).inserted {
                weighedChoices.append((key, choicePoint, Story.trimSpacesAndTabs(startText + choiceOnlyText)))
            }
        }
        guard show else { return nil }
        let choice = Choice()
        choice.targetPath = choicePoint.pathOnChoice
        choice.sourcePath = choicePoint.path.componentsString
        choice.isInvisibleDefault = choicePoint.isInvisibleDefault
        let thread = state.callStack.forkThread()
        choice.threadAtGeneration = thread
        choice.originalThreadIndex = thread.threadIndex
        choice.tags = tags
        choice.text = Story.trimSpacesAndTabs(startText + choiceOnlyText)
        return choice
    }

    static func trimSpacesAndTabs(_ text: String) -> String {
        var scalars = Substring(text).unicodeScalars[...]
        while let f = scalars.first, f == " " || f == "\t" { scalars.removeFirst() }
        while let l = scalars.last, l == " " || l == "\t" { scalars.removeLast() }
        return String(String.UnicodeScalarView(scalars))
    }

    private func popChoiceStringAndTags(_ tags: inout [String]) throws(StoryError) -> String {
        guard let text = (try state.popEvaluationStack() as? ValueObject)?.stringText else {
            throw StoryError("Expected the text of a choice on the evaluation stack")
        }
        while let tag = state.peekEvaluationStack() as? Tag {
            _ = try state.popEvaluationStack()
            tags.insert(tag.text, at: 0)
        }
        return text
    }

    func tryFollowDefaultInvisibleChoice() throws(StoryError) {
        let all = state.currentChoices
        let invisible = all.filter(\.isInvisibleDefault)
        guard let choice = invisible.first, all.count <= invisible.count else { return }
        if let thread = choice.threadAtGeneration { state.callStack.currentThread = thread }
        if snapshotAtLastNewline != nil { state.callStack.currentThread = state.callStack.forkThread() }
        try choosePath(choice.targetPath, incrementingTurnIndex: false)
    }

    func choosePath(_ path: Path, incrementingTurnIndex: Bool = true) throws(StoryError) {
        try state.setChosenPath(path, incrementingTurnIndex: incrementingTurnIndex)
        visitChangedContainersDueToDivert()
    }

    /// Takes the choice at `index` of `currentChoices`.
    public func chooseChoiceIndex(_ index: Int) throws(StoryError) {
        let choices = currentChoices
        guard index >= 0 && index < choices.count else {
            throw StoryError("choice out of range: \(index) (there are \(choices.count) choices)")
        }
        let choice = choices[index]
        if let thread = choice.threadAtGeneration { state.callStack.currentThread = thread }
        try choosePath(choice.targetPath)
    }

    /// Jumps to a knot or stitch (`knot.stitch`), passing arguments as a knot with parameters expects.
    public func choosePathString(_ path: String, resetCallstack: Bool = true, arguments: [InkValue] = [])
        throws(StoryError)
    {
        if resetCallstack {
            self.resetCallstack()
        } else if state.callStack.currentElement.type == .function {
            throw StoryError(
                "Story was running a function when you called ChoosePathString(\(path)) - this is almost certainly not not what you want! Full stack trace: \n\(state.callStack.callStackTrace)"
            )
        }
        for a in arguments { state.pushEvaluationStack(ValueObject(a)) }
        try choosePath(Path(path))
    }

    // MARK: Functions

    public func hasFunction(_ name: String) -> Bool { knotContainer(named: name) != nil }

    /// Runs an ink function from the game; returns its value and the text it printed.
    public func evaluateFunction(_ name: String, arguments: [InkValue] = []) throws(StoryError)
        -> (value: InkValue?, output: String)
    {
        guard !name.trimmingSpaces.isEmpty else { throw StoryError("Function is empty or white space.") }
        guard let container = knotContainer(named: name) else {
            throw StoryError("Function doesn't exist: '\(name)'")
        }
        let outputBefore = state.outputStream
        state.resetOutput()
        state.startFunctionEvaluationFromGame(container, arguments: arguments)
        var text = ""
        while canContinue { text += try continueStory() }
        state.resetOutput(outputBefore)
        let result = try state.completeFunctionEvaluationFromGame()
        return (result, text)
    }

    /// Binds an EXTERNAL function. `lookaheadSafe`: may run while ink looks past a newline for glue.
    public func bindExternalFunction(
        _ name: String, lookaheadSafe: Bool = true, _ function: @escaping ([InkValue]) throws -> InkValue?
    ) throws(StoryError) {
        guard externals[name] == nil else { throw StoryError("Function '\(name)' has already been bound.") }
        externals[name] = ExternalFunction(function: function, lookaheadSafe: lookaheadSafe)
    }

    public func unbindExternalFunction(_ name: String) throws(StoryError) {
        guard externals.removeValue(forKey: name) != nil else {
            throw StoryError("Function '\(name)' has not been bound.")
        }
    }

    func callExternalFunction(_ name: String, argumentCount: Int) throws(StoryError) {
        let definition = externals[name]
        if let definition, !definition.lookaheadSafe, snapshotAtLastNewline != nil {
            sawLookaheadUnsafeFunctionAfterNewline = true
            return
        }
        guard let definition else {
            guard allowExternalFunctionFallbacks else {
                throw StoryError(
                    "Trying to call EXTERNAL function '\(name)' which has not been bound (and ink fallbacks disabled).")
            }
            guard let fallback = knotContainer(named: name) else {
                throw StoryError(
                    "Trying to call EXTERNAL function '\(name)' which has not been bound, and fallback ink function could not be found."
                )
            }
            state.callStack.push(.function, outputStreamLengthWithPushed: state.outputStream.count)
            state.divertedPointer = .startOf(fallback)
            return
        }
        var arguments: [InkValue] = []
        for _ in 0..<argumentCount {
            guard let v = try state.popEvaluationStack() as? ValueObject else {
                throw StoryError("An argument of EXTERNAL function '\(name)' is not a value")
            }
            arguments.append(v.value)
        }
        arguments.reverse()
        let result: InkValue?
        do {
            result = try definition.function(arguments)
        } catch let error as StoryError {
            throw error
        } catch {
            throw StoryError("EXTERNAL function '\(name)' failed: \(error)")
        }
        state.pushEvaluationStack(result.map { ValueObject($0) } ?? VoidValue())
    }

    func validateExternalBindings() throws(StoryError) {
        let missing = missingExternalFunctions
        hasValidatedExternals = true
        guard missing.isEmpty else {
            var message = "Error: Missing function binding for external\(missing.count > 1 ? "s" : ""): '"
            message += missing.joined(separator: "', '") + "' "
            message += allowExternalFunctionFallbacks ? ", and no fallback ink function found." : " (ink fallbacks disabled)"
            throw StoryError(message)
        }
    }

    /// The external functions (`EXTERNAL name()`) the story calls that have neither a binding nor, when
    /// `allowExternalFunctionFallbacks` is on, an ink function of the same name to fall back on, sorted by
    /// name. The first `continueStory()` stops with an error while one is missing.
    public var missingExternalFunctions: [String] {
        var missing: [String] = []
        func visit(_ object: InkObject) {
            if let container = object as? Container {
                for child in container.content where !((child as? Container)?.name != nil) { visit(child) }
                for child in container.namedContent.values { visit(child) }
            } else if let divert = object as? Divert, divert.isExternal, let name = divert.targetPathStorage?.componentsString {
                if externals[name] == nil {
                    let fallbackFound = allowExternalFunctionFallbacks && mainContentContainer.namedContent[name] != nil
                    if !fallbackFound && !missing.contains(name) { missing.append(name) }
                }
            }
        }
        visit(mainContentContainer)
        return missing.sorted()
    }

    // MARK: Variables

    /// A global variable's value (nil if there is none by that name).
    public func variable(_ name: String) -> InkValue? {
        (state.variablesState.globals[name] ?? state.variablesState.defaultGlobals[name]).flatMap { ($0 as? ValueObject)?.value }
    }

    public func setVariable(_ name: String, _ value: InkValue) throws(StoryError) {
        guard state.variablesState.defaultGlobals[name] != nil else {
            throw StoryError("Cannot assign to a variable (\(name)) that hasn't been declared in the story")
        }
        state.variablesState.setGlobalVariable(name, ValueObject(value))
    }

    /// Calls `observer` whenever the global changes (batched to the end of each continue, as ink does).
    public func observeVariable(_ name: String, _ observer: @escaping (String, InkValue) -> Void) throws(StoryError) {
        guard state.variablesState.globalExists(name) else {
            throw StoryError("Cannot observe variable '\(name)' because it wasn't declared in the ink story.")
        }
        variableObservers[name, default: []].append(observer)
    }

    public func removeVariableObservers(_ name: String) { variableObservers[name] = nil }

    func variableDidChange(_ name: String, _ value: InkObject) {
        guard let observers = variableObservers[name], let v = value as? ValueObject else { return }
        for observer in observers { observer(name, v.value) }
    }

    func flushVariableChanges() {
        let variables = state.variablesState
        variables.batchObserving = false
        let changed = variables.changedForBatch
        variables.changedForBatch = []
        for name in changed {
            if let value = variables.globals[name] { variableDidChange(name, value) }
        }
    }

    /// A list value holding every item of the LIST `origin`, or one item (`origin.item`).
    public func listValue(item fullName: String) throws(StoryError) -> InkList {
        let item = InkListItem(fullName: fullName)
        guard let def = listDefinitions?.definition(named: item.originName ?? ""), let value = def.value(for: item) else {
            throw StoryError("List item '\(fullName)' does not exist.")
        }
        let list = try InkList(originNamed: def.name, definitions: listDefinitions)
        list.add(item, value)
        return list
    }

    // MARK: Tags

    /// Tags at the very top of the story.
    public var globalTags: [String] { (try? tagsForContent(atPath: "")) ?? [] }

    /// Tags at the start of a knot or stitch.
    public func tagsForContent(atPath pathString: String) throws(StoryError) -> [String] {
        guard var container = contentAtPath(Path(pathString)).container else { return [] }
        while let first = container.content.first as? Container { container = first }
        var inTag = false
        var tags: [String] = []
        for object in container.content {
            if let command = object as? ControlCommand {
                if command.kind == .beginTag { inTag = true } else if command.kind == .endTag { inTag = false }
            } else if inTag {
                guard let text = (object as? ValueObject)?.stringText else {
                    throw StoryError(
                        "Tag contained non-text content. Only plain text is allowed when using globalTags or TagsAtContentPath. If you want to evaluate dynamic content, you need to use story.Continue()."
                    )
                }
                tags.append(text)
            } else if let tag = object as? Tag {
                tags.append(tag.text)
            } else {
                break
            }
        }
        return tags
    }
}

extension String {
    var trimmingSpaces: String { Story.trimSpacesAndTabs(self) }
}
