/// Every node of a compiled story: containers, values and the control instructions between them.
class InkObject {
    /// Not owned and not weak: a parent owns its content, so it outlives it, and a weak reference gave every
    /// container a side table, which put each retain and release of one on the runtime's slow path.
    unowned(unsafe) var parent: Container?
    private var cachedPath: Path?
    private var cachedPathString: String?

    init() {}

    /// The absolute path of this object in the container tree (named children by name, others by index).
    var path: Path {
        if let cachedPath { return cachedPath }
        var components: [Path.Component] = []
        var child: InkObject = self
        var container = child.parent
        while let c = container {
            if let named = child as? Container, let name = named.name {
                components.append(.name(name))
            } else {
                components.append(.index(c.content.firstIndex { $0 === child } ?? 0))
            }
            child = c
            container = c.parent
        }
        let result = Path(components: components.reversed())
        cachedPath = result
        return result
    }

    /// `path` in ink's dotted form, kept: visit counts and turn indices are keyed by it at every visit.
    var pathString: String {
        if let cachedPathString { return cachedPathString }
        let result = path.componentsString
        cachedPathString = result
        return result
    }

    var rootContentContainer: Container? {
        var ancestor: InkObject = self
        while let p = ancestor.parent { ancestor = p }
        return ancestor as? Container
    }

    func resolvePath(_ path: Path) -> SearchResult {
        if path.isRelative {
            var nearest = self as? Container
            var rest = path
            if nearest == nil {
                nearest = parent
                rest = path.tail
            }
            guard let nearest else { return SearchResult(object: nil, approximate: true) }
            return nearest.contentAtPath(rest)
        }
        guard let root = rootContentContainer else { return SearchResult(object: nil, approximate: true) }
        return root.contentAtPath(path)
    }

    /// The shorter of the global path and the path relative to this object, as ink writes targets.
    func compactPathString(_ otherPath: Path) -> String {
        if otherPath.isRelative { return otherPath.componentsString }
        let relative = convertPathToRelative(otherPath)
        let relativeString = relative.componentsString
        let globalString = otherPath.componentsString
        return relativeString.count < globalString.count ? relativeString : globalString
    }

    private func convertPathToRelative(_ globalPath: Path) -> Path {
        let ownPath = path
        let minLength = min(globalPath.length, ownPath.length)
        var lastShared = -1
        for i in 0..<minLength {
            if ownPath.components[i] == globalPath.components[i] { lastShared = i } else { break }
        }
        if lastShared == -1 { return globalPath }
        let upwardMoves = (ownPath.length - 1) - lastShared
        var components = [Path.Component](repeating: .name("^"), count: upwardMoves)
        components.append(contentsOf: globalPath.components.dropFirst(lastShared + 1))
        return Path(components: components, isRelative: true)
    }
}

struct SearchResult {
    var object: InkObject?
    var approximate: Bool

    var correctObject: InkObject? { approximate ? nil : object }
    var container: Container? { object as? Container }
}

/// Glue, `<>`: the text on either side joins into one line. Stories compiled by ink 16 and 17 also hold
/// left (`G<`) and right (`G>`) glue, which their compiler put around inline logic; ink 18 dropped them for
/// trimming the whitespace a function writes at its start and end (`StoryState+LegacyGlue.swift`).
final class Glue: InkObject {
    enum Kind { case both, left, right }
    let kind: Kind
    init(_ kind: Kind = .both) { self.kind = kind }
}

final class VoidValue: InkObject {}

/// A legacy tag (`{"#": "text"}`) or a tag built from choice text.
final class Tag: InkObject {
    let text: String
    init(_ text: String) { self.text = text }
}

final class ControlCommand: InkObject {
    enum Kind: String, CaseIterable {
        case evalStart = "ev", evalOutput = "out", evalEnd = "/ev", duplicate = "du", popEvaluatedValue = "pop"
        case popFunction = "~ret", popTunnel = "->->", beginString = "str", endString = "/str", noOp = "nop"
        case choiceCount = "choiceCnt", turns = "turn", turnsSince = "turns", readCount = "readc", random = "rnd"
        case seedRandom = "srnd", visitIndex = "visit", sequenceShuffleIndex = "seq", startThread = "thread"
        case done = "done", end = "end", listFromInt = "listInt", listRange = "range", listRandom = "lrnd"
        case beginTag = "#", endTag = "/#"
    }

    let kind: Kind
    init(_ kind: Kind) { self.kind = kind }
}

enum PushPopType: Int, Sendable {
    case tunnel = 0
    case function = 1
    case functionEvaluationFromGame = 2
}

final class Divert: InkObject {
    var targetPathStorage: Path?
    /// The resolved target, not owned: it is in the same tree as this divert, so it lives as long as it does.
    private unowned(unsafe) var resolvedContainer: Container?
    private var resolvedIndex = -1
    private var isResolved = false
    var variableDivertName: String?
    var pushesToStack = false
    var stackPushType: PushPopType = .function
    var isExternal = false
    var externalArgs = 0
    var isConditional = false

    var hasVariableTarget: Bool { variableDivertName != nil }

    var targetPath: Path? {
        if let p = targetPathStorage, p.isRelative, let target = targetPointer.resolve() {
            targetPathStorage = target.path
        }
        return targetPathStorage
    }

    var targetPointer: Pointer {
        if isResolved { return Pointer(container: resolvedContainer, index: resolvedIndex) }
        guard let targetPathStorage else { return .null }
        let targetObject = resolvePath(targetPathStorage).object
        var pointer = Pointer.null
        if case let .index(i)? = targetPathStorage.lastComponent {
            pointer = Pointer(container: targetObject?.parent, index: i)
        } else if let c = targetObject as? Container {
            pointer = .startOf(c)
        }
        resolvedContainer = pointer.container
        resolvedIndex = pointer.index
        isResolved = true
        return pointer
    }

    var targetPathString: String? {
        guard let p = targetPath else { return nil }
        return compactPathString(p)
    }
}

final class ChoicePoint: InkObject {
    var pathOnChoiceStorage: Path = Path()
    var flags = 0

    var hasCondition: Bool { flags & 1 != 0 }
    var hasStartContent: Bool { flags & 2 != 0 }
    var hasChoiceOnlyContent: Bool { flags & 4 != 0 }
    var isInvisibleDefault: Bool { flags & 8 != 0 }
    var onceOnly: Bool { flags & 16 != 0 }

    var choiceTarget: Container? { resolvePath(pathOnChoiceStorage).container }

    var pathOnChoice: Path {
        if pathOnChoiceStorage.isRelative, let target = choiceTarget {
            pathOnChoiceStorage = target.path
        }
        return pathOnChoiceStorage
    }
}

final class VariableReference: InkObject {
    var name: String?
    var pathForCount: Path?

    var containerForCount: Container? {
        guard let pathForCount else { return nil }
        return resolvePath(pathForCount).container
    }
}

final class VariableAssignment: InkObject {
    let variableName: String
    let isNewDeclaration: Bool
    let isGlobal: Bool

    init(variableName: String, isNewDeclaration: Bool, isGlobal: Bool) {
        self.variableName = variableName
        self.isNewDeclaration = isNewDeclaration
        self.isGlobal = isGlobal
    }
}
