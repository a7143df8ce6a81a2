extension Story {
    func isTruthy(_ object: InkObject) throws(StoryError) -> Bool {
        guard let v = object as? ValueObject else { return false }
        if case let .divertTarget(p) = v.value {
            throw StoryError(
                "Shouldn't use a divert target (to \(p)) as a conditional value. Did you intend a function call 'likeThis()' or a read count check 'likeThis'? (no arrows)"
            )
        }
        return try v.value.isTruthy
    }

    /// Performs a divert, control command, variable access or native function; false for ordinary content.
    func performLogicAndFlowControl(_ object: InkObject?) throws(StoryError) -> Bool {
        guard let object else { return false }
        if let divert = object as? Divert {
            try performDivert(divert)
            return true
        }
        if let command = object as? ControlCommand {
            try perform(command)
            return true
        }
        if let assignment = object as? VariableAssignment {
            let value = try state.popEvaluationStack()
            try state.variablesState.assign(assignment, value)
            return true
        }
        if let reference = object as? VariableReference {
            let found: InkObject
            if reference.pathForCount != nil {
                guard let container = reference.containerForCount else {
                    throw StoryError("Failed to find container for read count of \(reference.pathForCount!)")
                }
                found = ValueObject(.int(try state.visitCount(for: container)))
            } else if let name = reference.name, let value = state.variablesState.variable(named: name) {
                found = value
            } else {
                warning(
                    "Variable not found: '\(reference.name ?? "")'. Using default value of 0 (false). This can happen with temporary variables if the declaration hasn't yet been hit. Globals are always given a default value on load if a value doesn't exist in the save state."
                )
                found = ValueObject(.int(0))
            }
            state.pushEvaluationStack(found)
            return true
        }
        if let function = object as? NativeFunctionCall {
            let parameters = try state.popEvaluationStack(function.numberOfParameters)
            state.pushEvaluationStack(ValueObject(try function.call(parameters)))
            return true
        }
        return false
    }

    private func performDivert(_ divert: Divert) throws(StoryError) {
        if divert.isConditional {
            let condition = try state.popEvaluationStack()
            if !(try isTruthy(condition)) { return }
        }
        if let name = divert.variableDivertName {
            guard let contents = state.variablesState.variable(named: name) as? ValueObject else {
                throw StoryError("Tried to divert using a target from a variable that could not be found (\(name))")
            }
            guard case let .divertTarget(target) = contents.value else {
                var message = "Tried to divert to a target from a variable, but the variable (\(name)) didn't contain a divert target, it "
                if case .int(0) = contents.value {
                    message += "was empty/null (the value 0)."
                } else {
                    message += "contained '\(contents.value)'."
                }
                throw StoryError(message)
            }
            state.divertedPointer = try pointer(at: target)
        } else if divert.isExternal {
            try callExternalFunction(divert.targetPathStorage?.componentsString ?? "", argumentCount: divert.externalArgs)
            return
        } else {
            state.divertedPointer = divert.targetPointer
        }
        if divert.pushesToStack {
            guard state.callStack.depth < Story.maximumCallStackDepth else {
                throw StoryError(
                    "The call stack is more than \(Story.maximumCallStackDepth) deep: a function or tunnel calls itself without end?")
            }
            state.callStack.push(divert.stackPushType, outputStreamLengthWithPushed: state.outputStream.count)
        }
        if state.divertedPointer.isNull && !divert.isExternal {
            throw StoryError("Divert resolution failed: \(divert.targetPathStorage?.componentsString ?? "?")")
        }
    }

    private func perform(_ command: ControlCommand) throws(StoryError) {
        switch command.kind {
        case .evalStart:
            guard !state.inExpressionEvaluation else { throw StoryError("Already in expression evaluation?") }
            state.inExpressionEvaluation = true
        case .evalEnd:
            guard state.inExpressionEvaluation else { throw StoryError("Not in expression evaluation mode") }
            state.inExpressionEvaluation = false
        case .evalOutput:
            if !state.evaluationStack.isEmpty {
                let output = try state.popEvaluationStack()
                if let v = output as? ValueObject {
                    state.pushToOutputStream(ValueObject(.string(v.value.description)))
                }
            }
        case .noOp:
            break
        case .duplicate:
            guard let top = state.peekEvaluationStack() else { throw StoryError("Nothing to duplicate on the evaluation stack") }
            state.pushEvaluationStack(top)
        case .popEvaluatedValue:
            _ = try state.popEvaluationStack()
        case .popFunction, .popTunnel:
            let popType: PushPopType = command.kind == .popFunction ? .function : .tunnel
            var overrideTarget: Path?
            if popType == .tunnel {
                let popped = try state.popEvaluationStack()
                if let v = popped as? ValueObject, case let .divertTarget(p) = v.value {
                    overrideTarget = p
                } else if !(popped is VoidValue) {
                    throw StoryError("Expected void if ->-> doesn't override target")
                }
            }
            if state.tryExitFunctionEvaluationFromGame() { break }
            if state.callStack.currentElement.type != popType || !state.callStack.canPop {
                let names: [PushPopType: String] = [
                    .function: "function return statement (~ return)", .tunnel: "tunnel onwards statement (->->)",
                ]
                var expected = names[state.callStack.currentElement.type] ?? "?"
                if !state.callStack.canPop { expected = "end of flow (-> END or choice)" }
                throw StoryError("Found \(names[popType]!), when expected \(expected)")
            }
            try state.popCallStack()
            if let overrideTarget { state.divertedPointer = try pointer(at: overrideTarget) }
        case .beginString:
            state.pushToOutputStream(command)
            guard state.inExpressionEvaluation else {
                throw StoryError("Expected to be in an expression when evaluating a string")
            }
            state.inExpressionEvaluation = false
        case .beginTag:
            state.pushToOutputStream(command)
        case .endTag:
            if state.inStringEvaluation {
                var parts: [String] = []
                var consumed = 0
                for object in state.outputStream.reversed() {
                    consumed += 1
                    if let c = object as? ControlCommand {
                        if c.kind == .beginTag { break }
                        throw StoryError("Unexpected ControlCommand while extracting tag from choice")
                    }
                    if let s = (object as? ValueObject)?.stringText { parts.append(s) }
                }
                state.popFromOutputStream(consumed)
                let text = StoryState.cleanOutputWhitespace(parts.reversed().joined())
                state.pushEvaluationStack(Tag(text))
            } else {
                state.pushToOutputStream(command)
            }
        case .endString:
            var parts: [String] = []
            var retained: [InkObject] = []
            var consumed = 0
            for object in state.outputStream.reversed() {
                consumed += 1
                if let c = object as? ControlCommand, c.kind == .beginString { break }
                // ink 18 and later keep a tag written inside a string on the output; ink 16-17 dropped it.
                if object is Tag, !usesLegacyGlue { retained.append(object) }
                if let s = (object as? ValueObject)?.stringText { parts.append(s) }
            }
            state.popFromOutputStream(consumed)
            for tag in retained.reversed() { state.pushToOutputStream(tag) }
            state.inExpressionEvaluation = true
            state.pushEvaluationStack(ValueObject(.string(parts.reversed().joined())))
        case .choiceCount:
            state.pushEvaluationStack(ValueObject(.int(state.generatedChoices.count)))
        case .turns:
            state.pushEvaluationStack(ValueObject(.int(state.currentTurnIndex + 1)))
        case .turnsSince, .readCount:
            let target = try state.popEvaluationStack()
            guard let v = target as? ValueObject, case let .divertTarget(path) = v.value else {
                var extra = ""
                if let v = target as? ValueObject, case .int = v.value {
                    extra = ". Did you accidentally pass a read count ('knot_name') instead of a target ('-> knot_name')?"
                }
                let seen = (target as? ValueObject)?.value.description ?? "void"
                throw StoryError(
                    "TURNS_SINCE / READ_COUNT expected a divert target (knot, stitch, label name), but saw \(seen)\(extra)")
            }
            let count: Int
            if let container = contentAtPath(path).correctObject as? Container {
                count = command.kind == .turnsSince ? try state.turnsSince(for: container) : try state.visitCount(for: container)
            } else {
                count = command.kind == .turnsSince ? -1 : 0
                warning("Failed to find container for \(command.kind == .turnsSince ? "TURNS_SINCE" : "READ_COUNT") lookup at \(path)")
            }
            state.pushEvaluationStack(ValueObject(.int(count)))
        case .random:
            let maxObject = try state.popEvaluationStack()
            let minObject = try state.popEvaluationStack()
            guard let minV = minObject as? ValueObject, case let .int(minimum) = minV.value else {
                throw StoryError("Invalid value for the minimum parameter of RANDOM(min, max)")
            }
            guard let maxV = maxObject as? ValueObject, case let .int(maximum) = maxV.value else {
                throw StoryError("Invalid value for the maximum parameter of RANDOM(min, max)")
            }
            let range = Int(Int32(truncatingIfNeeded: maximum &- minimum &+ 1))
            guard range > 0 else {
                throw StoryError("RANDOM was called with minimum as \(minimum) and maximum as \(maximum). The maximum must be larger")
            }
            var random = StdRandom(inkSeed: state.storySeed &+ state.previousRandom)
            let next = random.nextUInt32()
            let chosen = Int(next % UInt32(range)) + minimum
            state.pushEvaluationStack(ValueObject(.int(Int(Int32(truncatingIfNeeded: chosen)))))
            state.previousRandom += 1
        case .seedRandom:
            guard let v = try state.popEvaluationStack() as? ValueObject, case let .int(seed) = v.value else {
                throw StoryError("Invalid value passed to SEED_RANDOM")
            }
            state.storySeed = seed
            state.previousRandom = 0
            state.pushEvaluationStack(VoidValue())
        case .visitIndex:
            guard let container = state.currentPointer.container else { throw StoryError("No container for a visit index") }
            state.pushEvaluationStack(ValueObject(.int(try state.visitCount(for: container) - 1)))
        case .sequenceShuffleIndex:
            state.pushEvaluationStack(ValueObject(.int(try nextSequenceShuffleIndex())))
        case .startThread:
            break
        case .done:
            if state.callStack.canPopThread {
                try state.callStack.popThread()
            } else {
                state.didSafeExit = true
                state.currentPointer = .null
            }
        case .end:
            state.forceEnd()
        case .listFromInt:
            let intObject = try state.popEvaluationStack()
            let nameObject = try state.popEvaluationStack()
            guard let iv = intObject as? ValueObject, case let .int(value) = iv.value else {
                throw StoryError("Passed non-integer when creating a list element from a numerical value.")
            }
            guard let name = (nameObject as? ValueObject)?.stringText,
                  let definition = listDefinitions?.definition(named: name) else {
                throw StoryError("Failed to find LIST called \((nameObject as? ValueObject)?.stringText ?? "?")")
            }
            if let item = definition.item(withValue: value) {
                state.pushEvaluationStack(ListValue(InkList(single: item, value: value)))
            } else {
                state.pushEvaluationStack(ListValue(InkList()))
            }
        case .listRange:
            let maxObject = try state.popEvaluationStack()
            let minObject = try state.popEvaluationStack()
            let listObject = try state.popEvaluationStack()
            guard let list = (listObject as? ValueObject)?.listValue, let minV = minObject as? ValueObject,
                  let maxV = maxObject as? ValueObject else {
                throw StoryError("Expected list, minimum and maximum for LIST_RANGE")
            }
            state.pushEvaluationStack(ListValue(list.subRange(min: minV.value, max: maxV.value)))
        case .listRandom:
            guard let list = (try state.popEvaluationStack() as? ValueObject)?.listValue else {
                throw StoryError("Expected list for LIST_RANDOM")
            }
            if list.count == 0 {
                state.pushEvaluationStack(ListValue(InkList()))
                break
            }
            var random = StdRandom(inkSeed: state.storySeed &+ state.previousRandom)
            let next = random.nextUInt32()
            let sorted = list.items.sorted { $0.value > $1.value }
            let (item, value) = sorted[Int(next % UInt32(sorted.count))]
            let result = try InkList(originNamed: item.originName ?? "", definitions: listDefinitions)
            result.add(item, value)
            state.previousRandom = Int(Int32(bitPattern: next))
            state.pushEvaluationStack(ListValue(result))
        }
    }

    private func nextSequenceShuffleIndex() throws(StoryError) -> Int {
        guard let countV = try state.popEvaluationStack() as? ValueObject, case let .int(numElements) = countV.value else {
            throw StoryError("expected number of elements in sequence for shuffle index")
        }
        guard let container = state.currentPointer.container else { throw StoryError("No sequence container") }
        guard let seqV = try state.popEvaluationStack() as? ValueObject, case let .int(seqCount) = seqV.value else {
            throw StoryError("Expected sequence count value for shuffle index")
        }
        guard numElements > 0 else { throw StoryError("A shuffle needs at least one element") }
        let loopIndex = seqCount / numElements
        let iterationIndex = seqCount % numElements
        var hash = 0
        for scalar in container.pathString.unicodeScalars { hash += Int(scalar.value) }
        var random = StdRandom(inkSeed: hash &+ loopIndex &+ state.storySeed)
        var unpicked = Array(0..<numElements)
        for i in 0...iterationIndex {
            let r = Int(Int32(bitPattern: random.nextUInt32()))
            let n = unpicked.count
            let chosen = ((r % n) + n) % n
            let chosenIndex = unpicked[chosen]
            unpicked.remove(at: chosen)
            if i == iterationIndex { return chosenIndex }
        }
        throw StoryError("Should never reach here")
    }
}
