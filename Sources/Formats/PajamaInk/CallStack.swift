/// The call stack of one flow: a stack of threads, each a stack of tunnel/function frames.
final class CallStack {
    struct Element {
        var currentPointer: Pointer
        var inExpressionEvaluation: Bool
        var temporaryVariables: [String: InkObject] = [:]
        var type: PushPopType
        var evaluationStackHeightWhenPushed = 0
        var functionStartInOutputStream = 0

        init(type: PushPopType, pointer: Pointer, inExpressionEvaluation: Bool = false) {
            self.type = type
            currentPointer = pointer
            self.inExpressionEvaluation = inExpressionEvaluation
        }
    }

    struct Thread {
        var callstack: [Element] = []
        var threadIndex = 0
        var previousPointer = Pointer.null
    }

    var threads: [Thread] = []
    var threadCounter = 0
    private let startOfRoot: Pointer

    init(root: Container) {
        startOfRoot = .startOf(root)
        reset()
    }

    init(copying other: CallStack) {
        threads = other.threads
        threadCounter = other.threadCounter
        startOfRoot = other.startOfRoot
    }

    func reset() {
        threads = [Thread(callstack: [Element(type: .tunnel, pointer: startOfRoot)])]
    }

    var elements: [Element] { threads[threads.count - 1].callstack }
    var depth: Int { elements.count }

    /// Read and changed in place (`_read`/`_modify`): a get-then-set copied the frame, its pointer and its
    /// temporaries at every step.
    var currentElement: Element {
        _read {
            let t = threads.count - 1
            yield threads[t].callstack[threads[t].callstack.count - 1]
        }
        _modify {
            let t = threads.count - 1
            yield &threads[t].callstack[threads[t].callstack.count - 1]
        }
    }

    var currentElementIndex: Int { elements.count - 1 }

    var currentThread: Thread {
        get { threads[threads.count - 1] }
        set { threads = [newValue] }
    }

    var canPop: Bool { elements.count > 1 }

    func canPop(_ type: PushPopType?) -> Bool {
        guard canPop else { return false }
        guard let type else { return true }
        return currentElement.type == type
    }

    var canPopThread: Bool { threads.count > 1 && !elementIsEvaluateFromGame }
    var elementIsEvaluateFromGame: Bool { currentElement.type == .functionEvaluationFromGame }

    func push(_ type: PushPopType, externalEvaluationStackHeight: Int = 0, outputStreamLengthWithPushed: Int = 0) {
        var element = Element(type: type, pointer: currentElement.currentPointer, inExpressionEvaluation: false)
        element.evaluationStackHeightWhenPushed = externalEvaluationStackHeight
        element.functionStartInOutputStream = outputStreamLengthWithPushed
        threads[threads.count - 1].callstack.append(element)
    }

    func pop(_ type: PushPopType? = nil) throws(StoryError) {
        guard canPop(type) else { throw StoryError("Mismatched push/pop in Callstack") }
        threads[threads.count - 1].callstack.removeLast()
    }

    func pushThread() {
        var thread = currentThread
        threadCounter += 1
        thread.threadIndex = threadCounter
        threads.append(thread)
    }

    func forkThread() -> Thread {
        var thread = currentThread
        threadCounter += 1
        thread.threadIndex = threadCounter
        return thread
    }

    func popThread() throws(StoryError) {
        guard canPopThread else { throw StoryError("Can't pop thread") }
        threads.removeLast()
    }

    func temporaryVariable(named name: String, contextIndex: Int = -1) -> InkObject? {
        let index = contextIndex == -1 ? currentElementIndex + 1 : contextIndex
        let stack = elements
        guard index - 1 >= 0, index - 1 < stack.count else { return nil }
        return stack[index - 1].temporaryVariables[name]
    }

    func setTemporaryVariable(_ name: String, _ value: InkObject, declareNew: Bool, contextIndex: Int = -1)
        throws(StoryError)
    {
        let index = contextIndex == -1 ? currentElementIndex + 1 : contextIndex
        let t = threads.count - 1
        guard index - 1 >= 0, index - 1 < threads[t].callstack.count else {
            throw StoryError("Could not find temporary variable to set: \(name)")
        }
        let old = threads[t].callstack[index - 1].temporaryVariables[name]
        if !declareNew && old == nil { throw StoryError("Could not find temporary variable to set: \(name)") }
        if let old { ValueObject.retainListOrigins(old: old, new: value) }
        threads[t].callstack[index - 1].temporaryVariables[name] = value
    }

    /// 0 for a global, else the 1-based index of the frame holding the temporary.
    func contextForVariable(named name: String) -> Int {
        currentElement.temporaryVariables[name] != nil ? currentElementIndex + 1 : 0
    }

    func thread(withIndex index: Int) -> Thread? { threads.first { $0.threadIndex == index } }

    var callStackTrace: String {
        var out = ""
        for (t, thread) in threads.enumerated() {
            out += "=== THREAD \(t + 1)/\(threads.count) \(t == threads.count - 1 ? "(current) " : "")===\n"
            for element in thread.callstack {
                out += element.type == .function ? "  [FUNCTION] " : "  [TUNNEL] "
                if let c = element.currentPointer.container { out += "<SOMEWHERE IN \(c.path)>\n" }
            }
        }
        return out
    }
}
