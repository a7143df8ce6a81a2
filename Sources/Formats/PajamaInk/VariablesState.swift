/// Global variables (with their declared defaults) and the route to the temporaries of the current flow.
final class VariablesState {
    var globals: [String: InkObject] = [:]
    var defaultGlobals: [String: InkObject] = [:]
    /// Declaration order of the globals, for a stable save file.
    var globalOrder: [String] = []
    unowned var callStack: CallStack
    let listDefinitions: ListDefinitionsOrigin?
    var batchObserving = false
    var changedForBatch: [String] = []
    var onChange: ((String, InkObject) -> Void)?

    init(callStack: CallStack, listDefinitions: ListDefinitionsOrigin?) {
        self.callStack = callStack
        self.listDefinitions = listDefinitions
    }

    init(copying other: VariablesState, callStack: CallStack) {
        globals = other.globals
        defaultGlobals = other.defaultGlobals
        globalOrder = other.globalOrder
        self.callStack = callStack
        listDefinitions = other.listDefinitions
        batchObserving = other.batchObserving
        changedForBatch = other.changedForBatch
        onChange = other.onChange
    }

    func snapshotDefaultGlobals() { defaultGlobals = globals }

    func globalExists(_ name: String) -> Bool { globals[name] != nil || defaultGlobals[name] != nil }

    func variable(named name: String, contextIndex: Int = -1) -> InkObject? {
        var value = rawVariable(named: name, contextIndex: contextIndex)
        if let pointer = value as? ValueObject, case let .variablePointer(n, ci) = pointer.value {
            value = variable(named: n, contextIndex: ci)
        }
        return value
    }

    func rawVariable(named name: String, contextIndex: Int) -> InkObject? {
        if contextIndex == 0 || contextIndex == -1 {
            if let v = globals[name] { return v }
            if let v = defaultGlobals[name] { return v }
            if let v = listDefinitions?.findSingleItemList(named: name) { return v }
        }
        return callStack.temporaryVariable(named: name, contextIndex: contextIndex)
    }

    func assign(_ assignment: VariableAssignment, _ incoming: InkObject) throws(StoryError) {
        var name = assignment.variableName
        var value = incoming
        var contextIndex = -1
        var setGlobal = assignment.isNewDeclaration ? assignment.isGlobal : globalExists(name)
        if assignment.isNewDeclaration {
            if let p = value as? ValueObject, case let .variablePointer(n, ci) = p.value {
                value = resolveVariablePointer(name: n, contextIndex: ci)
            }
        } else {
            while let existing = rawVariable(named: name, contextIndex: contextIndex) as? ValueObject,
                  case let .variablePointer(n, ci) = existing.value {
                name = n
                contextIndex = ci
                setGlobal = ci == 0
            }
        }
        if setGlobal {
            setGlobalVariable(name, value)
        } else {
            try callStack.setTemporaryVariable(name, value, declareNew: assignment.isNewDeclaration, contextIndex: contextIndex)
        }
    }

    func setGlobalVariable(_ name: String, _ value: InkObject) {
        let old = globals[name]
        ValueObject.retainListOrigins(old: old, new: value)
        if old == nil && defaultGlobals[name] == nil { globalOrder.append(name) }
        globals[name] = value
        guard onChange != nil, let newValue = value as? ValueObject else { return }
        if let oldValue = old as? ValueObject, VariablesState.equal(oldValue.value, newValue.value) { return }
        if batchObserving {
            if !changedForBatch.contains(name) { changedForBatch.append(name) }
        } else {
            onChange?(name, value)
        }
    }

    private func resolveVariablePointer(name: String, contextIndex: Int) -> ValueObject {
        let ci = contextIndex == -1 ? (globalExists(name) ? 0 : callStack.currentElementIndex) : contextIndex
        if let double = rawVariable(named: name, contextIndex: ci) as? ValueObject, case .variablePointer = double.value {
            return double
        }
        return ValueObject(.variablePointer(name: name, contextIndex: ci))
    }

    /// Equality used to skip saving defaults and unchanged observer notifications.
    static func equal(_ a: InkValue, _ b: InkValue) -> Bool {
        switch (a, b) {
        case let (.bool(x), .bool(y)): return x == y
        case let (.int(x), .int(y)): return x == y
        case let (.float(x), .float(y)): return x == y
        case let (.string(x), .string(y)): return x == y
        case let (.list(x), .list(y)): return x === y || x.equals(y)
        case let (.divertTarget(x), .divertTarget(y)): return x == y
        case let (.variablePointer(n1, c1), .variablePointer(n2, c2)): return n1 == n2 && c1 == c2
        default: return false
        }
    }
}
