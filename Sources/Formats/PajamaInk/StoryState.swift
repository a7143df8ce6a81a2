/// Everything that changes while a story plays: flows, variables, visit and turn counts, the random seed,
/// errors. Copied whole for the look-ahead past a newline (ink's snapshot) since its collections are values.
final class StoryState {
    static let defaultFlowName = "DEFAULT_FLOW"
    static let saveVersion = 10
    static let minimumLoadVersion = 8

    unowned let story: Story
    var currentFlow: Flow
    /// Named flows in creation order; nil while only the default flow exists.
    var namedFlows: [(String, Flow)]?
    var variablesState: VariablesState
    var evaluationStack: [InkObject] = []
    var divertedPointer = Pointer.null
    var visitCounts: [String: Int] = [:]
    var turnIndices: [String: Int] = [:]
    var currentTurnIndex = -1
    var storySeed = 0
    var previousRandom = 0
    var didSafeExit = false
    var currentErrors: [String] = []
    var currentWarnings: [String] = []

    /// The text and tags of the output stream, made once per change (`StoryState+Output`).
    var cachedText: String?
    var cachedTags: [String]?
    var cachedEndsInsideTag: Bool?

    init(story: Story, seed: Int) {
        self.story = story
        currentFlow = Flow(name: StoryState.defaultFlowName, root: story.mainContentContainer)
        variablesState = VariablesState(callStack: currentFlow.callStack, listDefinitions: story.listDefinitions)
        storySeed = seed
        goToStart()
    }

    init(copying other: StoryState) {
        story = other.story
        let flow = Flow(copying: other.currentFlow)
        currentFlow = flow
        if let named = other.namedFlows {
            namedFlows = named.map { ($0.0, $0.0 == other.currentFlow.name ? flow : $0.1) }
        }
        variablesState = VariablesState(copying: other.variablesState, callStack: currentFlow.callStack)
        evaluationStack = other.evaluationStack
        divertedPointer = other.divertedPointer
        visitCounts = other.visitCounts
        turnIndices = other.turnIndices
        currentTurnIndex = other.currentTurnIndex
        storySeed = other.storySeed
        previousRandom = other.previousRandom
        didSafeExit = other.didSafeExit
        currentErrors = other.currentErrors
        currentWarnings = other.currentWarnings
    }

    var callStack: CallStack { currentFlow.callStack }

    var outputStream: [InkObject] {
        get { currentFlow.outputStream }
        set {
            currentFlow.replaceOutput(newValue, changedFrom: 0)
            outputStreamDirty()
        }
    }

    var generatedChoices: [Choice] {
        get { currentFlow.currentChoices }
        set { currentFlow.currentChoices = newValue }
    }

    var currentChoices: [Choice] { canContinue ? [] : currentFlow.currentChoices }

    func goToStart() {
        callStack.currentElement.currentPointer = .startOf(story.mainContentContainer)
    }

    var currentPointer: Pointer {
        get { callStack.currentElement.currentPointer }
        set { callStack.currentElement.currentPointer = newValue }
    }

    var previousPointer: Pointer {
        get { callStack.threads[callStack.threads.count - 1].previousPointer }
        set { callStack.threads[callStack.threads.count - 1].previousPointer = newValue }
    }

    var canContinue: Bool { !currentPointer.isNull && !hasError }
    var hasError: Bool { !currentErrors.isEmpty }
    var hasWarning: Bool { !currentWarnings.isEmpty }

    var inExpressionEvaluation: Bool {
        get { callStack.currentElement.inExpressionEvaluation }
        set { callStack.currentElement.inExpressionEvaluation = newValue }
    }

    // MARK: Flows

    func switchFlow(_ name: String) {
        if namedFlows == nil { namedFlows = [(StoryState.defaultFlowName, currentFlow)] }
        if name == currentFlow.name { return }
        if let existing = namedFlows!.first(where: { $0.0 == name })?.1 {
            currentFlow = existing
        } else {
            let flow = Flow(name: name, root: story.mainContentContainer)
            namedFlows!.append((name, flow))
            currentFlow = flow
        }
        variablesState.callStack = currentFlow.callStack
        outputStreamDirty()
    }

    func switchToDefaultFlow() {
        guard namedFlows != nil else { return }
        switchFlow(StoryState.defaultFlowName)
    }

    func removeFlow(_ name: String) throws(StoryError) {
        if name == StoryState.defaultFlowName { throw StoryError("Cannot destroy default flow") }
        if currentFlow.name == name { switchToDefaultFlow() }
        namedFlows?.removeAll { $0.0 == name }
    }

    var aliveFlowNames: [String] {
        (namedFlows ?? []).map(\.0).filter { $0 != StoryState.defaultFlowName }
    }

    // MARK: Counts

    func visitCount(for container: Container) throws(StoryError) -> Int {
        guard container.visitsShouldBeCounted else {
            throw StoryError(
                "Read count for target (\(container.name ?? "")) unknown. The story may need to be compiled with countAllVisits flag (-c)."
            )
        }
        return visitCounts[container.pathString] ?? 0
    }

    func incrementVisitCount(for container: Container) {
        visitCounts[container.pathString, default: 0] += 1
    }

    func recordTurnIndexVisit(to container: Container) {
        turnIndices[container.pathString] = currentTurnIndex
    }

    func turnsSince(for container: Container) throws(StoryError) -> Int {
        guard container.turnIndexShouldBeCounted else {
            throw StoryError(
                "TURNS_SINCE() for target (\(container.name ?? "")) unknown. The story may need to be compiled with countAllVisits flag (-c)."
            )
        }
        guard let index = turnIndices[container.pathString] else { return -1 }
        return currentTurnIndex - index
    }

    // MARK: Evaluation stack

    func pushEvaluationStack(_ object: InkObject) {
        if let list = (object as? ValueObject)?.listValue, let names = list.originNames {
            var origins: [ListDefinition] = []
            for n in names {
                if let def = story.listDefinitions?.definition(named: n), !origins.contains(where: { $0 === def }) {
                    origins.append(def)
                }
            }
            list.origins = origins
        }
        evaluationStack.append(object)
    }

    func popEvaluationStack() throws(StoryError) -> InkObject {
        guard let last = evaluationStack.popLast() else { throw StoryError("Trying to pop an empty evaluation stack") }
        return last
    }

    func popEvaluationStack(_ count: Int) throws(StoryError) -> [InkObject] {
        guard count <= evaluationStack.count else { throw StoryError("trying to pop too many objects") }
        let popped = Array(evaluationStack.suffix(count))
        evaluationStack.removeLast(count)
        return popped
    }

    func peekEvaluationStack() -> InkObject? { evaluationStack.last }

    // MARK: Ending, paths, functions

    func forceEnd() {
        callStack.reset()
        currentFlow.currentChoices.removeAll()
        currentPointer = .null
        previousPointer = .null
        didSafeExit = true
    }

    func popCallStack(_ type: PushPopType? = nil) throws(StoryError) {
        if callStack.currentElement.type == .function && !story.usesLegacyGlue { trimWhitespaceFromFunctionEnd() }
        try callStack.pop(type)
    }

    func setChosenPath(_ path: Path, incrementingTurnIndex: Bool) throws(StoryError) {
        currentFlow.currentChoices.removeAll()
        var pointer = try story.pointer(at: path)
        if !pointer.isNull && pointer.index == -1 { pointer.index = 0 }
        currentPointer = pointer
        if incrementingTurnIndex { currentTurnIndex += 1 }
    }

    func startFunctionEvaluationFromGame(_ container: Container, arguments: [InkValue]) {
        callStack.push(.functionEvaluationFromGame, externalEvaluationStackHeight: evaluationStack.count)
        callStack.currentElement.currentPointer = .startOf(container)
        for a in arguments { pushEvaluationStack(ValueObject(a)) }
    }

    func tryExitFunctionEvaluationFromGame() -> Bool {
        guard callStack.currentElement.type == .functionEvaluationFromGame else { return false }
        currentPointer = .null
        didSafeExit = true
        return true
    }

    func completeFunctionEvaluationFromGame() throws(StoryError) -> InkValue? {
        guard callStack.currentElement.type == .functionEvaluationFromGame else {
            throw StoryError("Expected external function evaluation to be complete. Stack trace: \(callStack.callStackTrace)")
        }
        let height = callStack.currentElement.evaluationStackHeightWhenPushed
        var returned: InkObject?
        while evaluationStack.count > height {
            let popped = try popEvaluationStack()
            if returned == nil { returned = popped }
        }
        try popCallStack(.functionEvaluationFromGame)
        return (returned as? ValueObject)?.value
    }

    func addError(_ message: String, isWarning: Bool) {
        if isWarning { currentWarnings.append(message) } else { currentErrors.append(message) }
    }

    func resetErrors() {
        currentErrors = []
        currentWarnings = []
    }
}
