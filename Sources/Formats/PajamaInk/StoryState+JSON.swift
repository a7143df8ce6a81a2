import PajamaJSON

/// ink's own save format (version 10, loads 8-10): flows with call stacks, output and choices; globals that
/// differ from their defaults; the evaluation stack; visit and turn counts; turn index and random seed.
extension StoryState {
    func json() -> JSON {
        var flows: [(String, JSON)] = []
        if let namedFlows {
            for (name, flow) in namedFlows { flows.append((name, flowJSON(flow))) }
        } else {
            flows.append((currentFlow.name, flowJSON(currentFlow)))
        }
        var globals: [(String, JSON)] = []
        let variables = variablesState
        for name in variables.globalOrder.isEmpty ? variables.globals.keys.sorted() : variables.globalOrder + variables
            .globals.keys.filter({ !variables.globalOrder.contains($0) }).sorted() {
            guard let value = variables.globals[name] as? ValueObject else { continue }
            if let def = variables.defaultGlobals[name] as? ValueObject, VariablesState.equal(def.value, value.value) { continue }
            globals.append((name, RuntimeJSON.write(value.value)))
        }
        var members: [(String, JSON)] = [
            ("flows", .object(flows)),
            ("currentFlowName", .string(currentFlow.name)),
            ("variablesState", .object(globals)),
            ("evalStack", .array(evaluationStack.map(RuntimeJSON.write))),
        ]
        if let path = divertedPointer.path { members.append(("currentDivertTarget", .string(path.componentsString))) }
        members += [
            ("visitCounts", .object(visitCounts.sorted { $0.key < $1.key }.map { ($0.key, JSON.int($0.value)) })),
            ("turnIndices", .object(turnIndices.sorted { $0.key < $1.key }.map { ($0.key, JSON.int($0.value)) })),
            ("turnIdx", .int(currentTurnIndex)),
            ("storySeed", .int(storySeed)),
            ("previousRandom", .int(previousRandom)),
            ("inkSaveVersion", .int(StoryState.saveVersion)),
            ("inkFormatVersion", .int(Story.inkVersionCurrent)),
        ]
        return .object(members)
    }

    private func flowJSON(_ flow: Flow) -> JSON {
        var members: [(String, JSON)] = [("callstack", callStackJSON(flow.callStack))]
        members.append(("outputStream", .array(flow.outputStream.map(RuntimeJSON.write))))
        var choiceThreads: [(String, JSON)] = []
        for choice in flow.currentChoices {
            guard let thread = choice.threadAtGeneration else { continue }
            choice.originalThreadIndex = thread.threadIndex
            if flow.callStack.thread(withIndex: thread.threadIndex) == nil,
               !choiceThreads.contains(where: { $0.0 == String(thread.threadIndex) }) {
                choiceThreads.append((String(thread.threadIndex), threadJSON(thread)))
            }
        }
        if !choiceThreads.isEmpty { members.append(("choiceThreads", .object(choiceThreads))) }
        members.append(("currentChoices", .array(flow.currentChoices.map(choiceJSON))))
        return .object(members)
    }

    private func callStackJSON(_ callStack: CallStack) -> JSON {
        .object([
            ("threads", .array(callStack.threads.map(threadJSON))),
            ("threadCounter", .int(callStack.threadCounter)),
        ])
    }

    private func threadJSON(_ thread: CallStack.Thread) -> JSON {
        var elements: [JSON] = []
        for element in thread.callstack {
            var members: [(String, JSON)] = []
            if let container = element.currentPointer.container {
                members.append(("cPath", .string(container.pathString)))
                members.append(("idx", .int(element.currentPointer.index)))
            }
            members.append(("exp", .bool(element.inExpressionEvaluation)))
            members.append(("type", .int(element.type.rawValue)))
            if !element.temporaryVariables.isEmpty {
                members.append((
                    "temp",
                    .object(element.temporaryVariables.sorted { $0.key < $1.key }.map { ($0.key, RuntimeJSON.write($0.value)) })
                ))
            }
            elements.append(.object(members))
        }
        var members: [(String, JSON)] = [("callstack", .array(elements)), ("threadIndex", .int(thread.threadIndex))]
        if let previous = thread.previousPointer.resolve() {
            members.append(("previousContentObject", .string(previous.pathString)))
        }
        return .object(members)
    }

    private func choiceJSON(_ choice: Choice) -> JSON {
        var members: [(String, JSON)] = [
            ("text", .string(choice.text)),
            ("index", .int(choice.index)),
            ("originalChoicePath", .string(choice.sourcePath)),
            ("originalThreadIndex", .int(choice.originalThreadIndex)),
            ("targetPath", .string(choice.targetPath.componentsString)),
        ]
        if !choice.tags.isEmpty { members.append(("tags", .array(choice.tags.map { .string($0) }))) }
        return .object(members)
    }

    // MARK: Loading

    func load(_ json: JSON) throws(StoryError) {
        guard let version = json["inkSaveVersion"]?.intValue else {
            throw StoryError("ink save format incorrect, can't load.")
        }
        guard version >= StoryState.minimumLoadVersion else {
            throw StoryError(
                "Ink save format isn't compatible with the current version (saw '\(version)', but minimum is \(StoryState.minimumLoadVersion)), so can't load."
            )
        }
        let root = story.mainContentContainer
        if let flowsToken = json["flows"]?.objectValue {
            var loaded: [(String, Flow)] = []
            for (name, flowToken) in flowsToken {
                let flow = Flow(name: name, root: root)
                try loadFlow(flow, from: flowToken)
                loaded.append((name, flow))
            }
            guard !loaded.isEmpty else { throw StoryError("the saved state has no flows") }
            if loaded.count == 1 {
                namedFlows = nil
                currentFlow = loaded[0].1
            } else {
                namedFlows = loaded
                let currentName = json["currentFlowName"]?.stringValue ?? StoryState.defaultFlowName
                guard let flow = loaded.first(where: { $0.0 == currentName })?.1 else {
                    throw StoryError("the saved state's current flow '\(currentName)' is missing")
                }
                currentFlow = flow
            }
        } else {
            namedFlows = nil
            let flow = Flow(name: StoryState.defaultFlowName, root: root)
            var legacy: [(String, JSON)] = [("callstack", json["callstackThreads"] ?? .null)]
            legacy.append(("outputStream", json["outputStream"] ?? .array([])))
            legacy.append(("currentChoices", json["currentChoices"] ?? .array([])))
            if let threads = json["choiceThreads"] { legacy.append(("choiceThreads", threads)) }
            try loadFlow(flow, from: .object(legacy))
            currentFlow = flow
        }
        outputStreamDirty()

        let variables = variablesState
        variables.globals = [:]
        let saved = json["variablesState"]?.objectValue ?? []
        for (name, value) in variables.defaultGlobals {
            if let token = saved.first(where: { $0.0 == name })?.1 {
                guard let object = try loadObject(token) else { continue }
                variables.globals[name] = object
            } else {
                variables.globals[name] = value
            }
        }
        variables.callStack = currentFlow.callStack

        evaluationStack = try loadObjects(json["evalStack"])
        if let target = json["currentDivertTarget"]?.stringValue {
            divertedPointer = try story.pointer(at: Path(target))
        } else {
            divertedPointer = .null
        }
        visitCounts = intDictionary(json["visitCounts"])
        turnIndices = intDictionary(json["turnIndices"])
        currentTurnIndex = json["turnIdx"]?.intValue ?? -1
        storySeed = json["storySeed"]?.intValue ?? 0
        previousRandom = json["previousRandom"]?.intValue ?? 0
    }

    private func intDictionary(_ token: JSON?) -> [String: Int] {
        var result: [String: Int] = [:]
        for (key, value) in token?.objectValue ?? [] { result[key] = value.intValue ?? 0 }
        return result
    }

    private func loadObject(_ token: JSON) throws(StoryError) -> InkObject? {
        do {
            return try RuntimeJSON.object(from: token)
        } catch {
            throw StoryError("the saved state holds an unreadable object: \(error.message)")
        }
    }

    private func loadObjects(_ token: JSON?) throws(StoryError) -> [InkObject] {
        do {
            return try RuntimeJSON.readObjects(token)
        } catch {
            throw StoryError("the saved state holds an unreadable object: \(error.message)")
        }
    }

    private func loadFlow(_ flow: Flow, from token: JSON) throws(StoryError) {
        let callStack = flow.callStack
        guard let threads = token["callstack"]?["threads"]?.arrayValue else {
            throw StoryError("the saved state has no call stack threads")
        }
        callStack.threads = try threads.map { (t) throws(StoryError) in try loadThread(t) }
        guard !callStack.threads.isEmpty else { throw StoryError("the saved state has an empty call stack") }
        callStack.threadCounter = token["callstack"]?["threadCounter"]?.intValue ?? 0
        flow.replaceOutput(try loadObjects(token["outputStream"]), changedFrom: 0)
        var choices: [Choice] = []
        for choiceToken in token["currentChoices"]?.arrayValue ?? [] {
            let choice = Choice()
            choice.text = choiceToken["text"]?.stringValue ?? ""
            choice.index = choiceToken["index"]?.intValue ?? 0
            choice.sourcePath = choiceToken["originalChoicePath"]?.stringValue ?? ""
            choice.originalThreadIndex = choiceToken["originalThreadIndex"]?.intValue ?? 0
            choice.targetPath = Path(choiceToken["targetPath"]?.stringValue ?? "")
            choice.tags = (choiceToken["tags"]?.arrayValue ?? []).compactMap(\.stringValue)
            if let thread = callStack.thread(withIndex: choice.originalThreadIndex) {
                choice.threadAtGeneration = thread
            } else if let saved = token["choiceThreads"]?[String(choice.originalThreadIndex)] {
                choice.threadAtGeneration = try loadThread(saved)
            } else {
                throw StoryError("the saved state lacks the thread of choice '\(choice.text)'")
            }
            if let source = contentAtSourcePath(choice.sourcePath) as? ChoicePoint {
                choice.isInvisibleDefault = source.isInvisibleDefault
            }
            choices.append(choice)
        }
        flow.currentChoices = choices
    }

    private func contentAtSourcePath(_ path: String) -> InkObject? {
        story.mainContentContainer.contentAtPath(Path(path)).correctObject
    }

    private func loadThread(_ token: JSON) throws(StoryError) -> CallStack.Thread {
        var thread = CallStack.Thread()
        thread.threadIndex = token["threadIndex"]?.intValue ?? 0
        for elementToken in token["callstack"]?.arrayValue ?? [] {
            guard let type = PushPopType(rawValue: elementToken["type"]?.intValue ?? -1) else {
                throw StoryError("the saved state has a call stack element of unknown type")
            }
            var pointer = Pointer.null
            if let pathString = elementToken["cPath"]?.stringValue {
                let result = story.mainContentContainer.contentAtPath(Path(pathString))
                guard result.object != nil else {
                    throw StoryError(
                        "When loading state, internal story location couldn't be found: \(pathString). Has the story changed since this save data was created?"
                    )
                }
                if result.approximate, let c = result.container {
                    story.warning(
                        "When loading state, exact internal story location couldn't be found: '\(pathString)', so it was approximated to '\(c.path)' to recover. Has the story changed since this save data was created?"
                    )
                }
                pointer = Pointer(container: result.container, index: elementToken["idx"]?.intValue ?? 0)
            }
            var element = CallStack.Element(
                type: type, pointer: pointer, inExpressionEvaluation: elementToken["exp"] == .bool(true))
            for (name, valueToken) in elementToken["temp"]?.objectValue ?? [] {
                if let object = try loadObject(valueToken) { element.temporaryVariables[name] = object }
            }
            thread.callstack.append(element)
        }
        if let previous = token["previousContentObject"]?.stringValue {
            thread.previousPointer = try story.pointer(at: Path(previous))
        }
        return thread
    }
}

extension Story {
    /// The state as ink's save JSON (format 10), loadable here or by any other ink runtime.
    public func saveStateJSON() -> String { JSONWriter.write(state.json()) }

    /// Loads a state saved by `saveStateJSON` or another ink runtime (save formats 8-10).
    public func loadStateJSON(_ text: String) throws(StoryError) {
        let json: JSON
        do {
            json = try JSONParser.parse(text, options: .ink)
        } catch {
            throw StoryError("the saved state is not valid JSON: \(error.description)")
        }
        let fresh = StoryState(story: self, seed: state.storySeed)
        fresh.variablesState.defaultGlobals = state.variablesState.defaultGlobals
        fresh.variablesState.globalOrder = state.variablesState.globalOrder
        fresh.variablesState.onChange = state.variablesState.onChange
        try fresh.load(json)
        state = fresh
        snapshotAtLastNewline = nil
    }
}
