import PajamaJSON

/// ink's JSON form of runtime objects (the compiled story and the objects a saved state holds), both ways.
enum RuntimeJSON {
    static func listDefinitions(from token: JSON) throws(StoryLoadError) -> ListDefinitionsOrigin {
        guard let lists = token.objectValue else { throw StoryLoadError("listDefs is not an object") }
        var definitions: [ListDefinition] = []
        for (name, itemsToken) in lists {
            guard let items = itemsToken.objectValue else { throw StoryLoadError("list '\(name)' is not an object") }
            var pairs: [(String, Int)] = []
            for (itemName, valueToken) in items {
                guard let value = valueToken.intValue else {
                    throw StoryLoadError("list item '\(name).\(itemName)' has no integer value")
                }
                pairs.append((itemName, value))
            }
            definitions.append(ListDefinition(name: name, items: pairs))
        }
        return ListDefinitionsOrigin(definitions)
    }

    static func object(from token: JSON) throws(StoryLoadError) -> InkObject? {
        switch token {
        case let .int(i): return ValueObject(.int(i))
        case let .double(d): return ValueObject(.float(Float(d)))
        case let .bool(b): return ValueObject(.bool(b))
        case .null: return nil
        case let .string(s): return try object(fromString: s)
        case let .array(a): return try container(from: a)
        case let .object(members): return try object(fromMembers: members, token: token)
        }
    }

    private static func object(fromString s: String) throws(StoryLoadError) -> InkObject {
        // ink's marker is the first Unicode scalar: the text after it may begin with a combining mark, a
        // variation selector or a joiner, which would join "^" into one Character (grapheme cluster).
        if s.utf8.first == UInt8(ascii: "^") { return ValueObject(.string(String(s.unicodeScalars.dropFirst()))) }
        if s == "\n" { return ValueObject(.string("\n")) }
        if s == "<>" { return Glue() }
        if s == "G<" { return Glue(.left) }
        if s == "G>" { return Glue(.right) }
        if let kind = ControlCommand.Kind(rawValue: s) { return ControlCommand(kind) }
        if s == "L^" { return NativeFunctionCall(name: "^") }
        if NativeFunctionCall.exists(s) { return NativeFunctionCall(name: s) }
        if s == "void" { return VoidValue() }
        throw StoryLoadError("unknown content '\(s)' in the compiled story")
    }

    private static func object(fromMembers members: [(String, JSON)], token: JSON) throws(StoryLoadError) -> InkObject {
        if let target = token["^->"]?.stringValue { return ValueObject(.divertTarget(Path(target))) }
        if let name = token["^var"]?.stringValue {
            return ValueObject(.variablePointer(name: name, contextIndex: token["ci"]?.intValue ?? -1))
        }
        for (key, pushes, type, external) in [
            ("->", false, PushPopType.function, false), ("f()", true, .function, false), ("->t->", true, .tunnel, false),
            ("x()", false, .function, true),
        ] {
            guard let targetToken = token[key] else { continue }
            let divert = Divert()
            divert.pushesToStack = pushes
            divert.stackPushType = type
            divert.isExternal = external
            let target = targetToken.stringValue ?? ""
            if token["var"] != nil {
                divert.variableDivertName = target
            } else {
                divert.targetPathStorage = Path(target)
            }
            if case .bool(true)? = token["c"] { divert.isConditional = true }
            if external { divert.externalArgs = token["exArgs"]?.intValue ?? 0 }
            return divert
        }
        if let path = token["*"]?.stringValue {
            let choicePoint = ChoicePoint()
            choicePoint.pathOnChoiceStorage = Path(path)
            choicePoint.flags = token["flg"]?.intValue ?? 0
            return choicePoint
        }
        if let name = token["VAR?"]?.stringValue {
            let reference = VariableReference()
            reference.name = name
            return reference
        }
        if let path = token["CNT?"]?.stringValue {
            let reference = VariableReference()
            reference.pathForCount = Path(path)
            return reference
        }
        for (key, isGlobal) in [("VAR=", true), ("temp=", false)] {
            guard let name = token[key]?.stringValue else { continue }
            let redeclared = token["re"] != nil
            return VariableAssignment(variableName: name, isNewDeclaration: !redeclared, isGlobal: isGlobal)
        }
        if let text = token["#"]?.stringValue { return Tag(text) }
        if let listToken = token["list"] {
            let list = InkList()
            if let origins = token["origins"]?.arrayValue { list.setInitialOriginNames(origins.compactMap(\.stringValue)) }
            for (fullName, valueToken) in listToken.objectValue ?? [] {
                list.add(InkListItem(fullName: fullName), valueToken.intValue ?? 0)
            }
            return ListValue(list)
        }
        throw StoryLoadError("unknown object \(JSONWriter.write(token)) in the compiled story")
    }

    private static func container(from array: [JSON]) throws(StoryLoadError) -> Container {
        let container = Container()
        for token in array.dropLast() {
            if let object = try object(from: token) { container.addContent(object) }
        }
        if let terminator = array.last?.objectValue {
            for (key, value) in terminator {
                switch key {
                case "#f": container.countFlags = value.intValue ?? 0
                case "#n": container.name = value.stringValue
                default:
                    guard let named = try object(from: value) else { continue }
                    if let sub = named as? Container { sub.name = key }
                    container.addToNamedContentOnly(key, named)
                }
            }
        }
        return container
    }

    // MARK: Writing

    static func write(_ object: InkObject) -> JSON {
        switch object {
        case let v as ValueObject: return write(v.value)
        case let divert as Divert:
            let key = divert.isExternal ? "x()" : (!divert.pushesToStack ? "->" : (divert.stackPushType == .tunnel ? "->t->" : "f()"))
            var members: [(String, JSON)] = [(key, .string(divert.variableDivertName ?? divert.targetPathString ?? ""))]
            if divert.hasVariableTarget { members.append(("var", .bool(true))) }
            if divert.isConditional { members.append(("c", .bool(true))) }
            if divert.isExternal { members.append(("exArgs", .int(divert.externalArgs))) }
            return .object(members)
        case let cp as ChoicePoint:
            return .object([("*", .string(cp.compactPathString(cp.pathOnChoice))), ("flg", .int(cp.flags))])
        case let glue as Glue: return .string(glue.kind == .left ? "G<" : glue.kind == .right ? "G>" : "<>")
        case let command as ControlCommand: return .string(command.kind.rawValue)
        case let function as NativeFunctionCall: return .string(function.name == "^" ? "L^" : function.name)
        case let reference as VariableReference:
            if let path = reference.pathForCount { return .object([("CNT?", .string(path.componentsString))]) }
            return .object([("VAR?", .string(reference.name ?? ""))])
        case let assignment as VariableAssignment:
            var members: [(String, JSON)] = [(assignment.isGlobal ? "VAR=" : "temp=", .string(assignment.variableName))]
            if !assignment.isNewDeclaration { members.append(("re", .bool(true))) }
            return .object(members)
        case is VoidValue: return .string("void")
        case let tag as Tag: return .object([("#", .string(tag.text))])
        default: return .null
        }
    }

    static func write(_ value: InkValue) -> JSON {
        switch value {
        case let .bool(b): return .bool(b)
        case let .int(i): return .int(i)
        case let .float(f): return .double(Double(f))
        case let .string(s): return .string(s == "\n" ? "\n" : "^" + s)
        case let .divertTarget(p): return .object([("^->", .string(p.componentsString))])
        case let .variablePointer(name, ci): return .object([("^var", .string(name)), ("ci", .int(ci))])
        case let .list(list):
            var members: [(String, JSON)] = [
                ("list", .object(list.orderedItems.map { ($0.0.fullName, JSON.int($0.1)) })),
            ]
            if list.count == 0, let names = list.originNames, !names.isEmpty {
                members.append(("origins", .array(names.map { .string($0) })))
            }
            return .object(members)
        }
    }

    static func readObjects(_ token: JSON?) throws(StoryLoadError) -> [InkObject] {
        var objects: [InkObject] = []
        for element in token?.arrayValue ?? [] {
            if let o = try object(from: element) { objects.append(o) }
        }
        return objects
    }
}
