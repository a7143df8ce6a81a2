import PajamaJSON

/// A compiled ink story (inklecate's JSON, ink versions 16-21) and its runtime: continue line by line,
/// choose, read and set variables, call ink functions, bind external functions, switch flows, save and load.
public final class Story {
    public static let inkVersionCurrent = 21
    /// The oldest ink this runtime loads. ink's own runtime has loaded 18 and later since 2018; stories of
    /// ink 16 and 17 are played with the glue rules of their time (`usesLegacyGlue`).
    public static let inkVersionMinimumCompatible = 16
    /// The first ink version without left and right glue (ink's runtime of April 2018).
    static let inkVersionWithoutLegacyGlue = 18
    /// Guards against a story that recurses or loops forever: an error instead of exhausting memory or hanging.
    static let maximumCallStackDepth = 10_000
    static let maximumStepsPerLine = 1_000_000
    static let maximumStackSize = 2_000

    let mainContentContainer: Container
    let listDefinitions: ListDefinitionsOrigin?
    /// True for a story compiled by ink 16 or 17: its text joins with left and right glue and functions keep
    /// the whitespace they write (`StoryState+LegacyGlue.swift`).
    let usesLegacyGlue: Bool
    var state: StoryState!
    var snapshotAtLastNewline: StoryState?
    var sawLookaheadUnsafeFunctionAfterNewline = false
    var recursiveContinueCount = 0
    var hasValidatedExternals = false
    var externals: [String: ExternalFunction] = [:]
    var variableObservers: [String: [(String, InkValue) -> Void]] = [:]

    /// Follow an ink fallback function when an EXTERNAL function is not bound.
    public var allowExternalFunctionFallbacks = false
    /// When on, the named containers the story enters (knots, stitches, and the compiler's gathers and
    /// choices) are noted, whatever their visit counting, for `takeEnteredContainerPaths()` (coverage).
    public var recordsEnteredContainers = false
    var enteredContainers: [ObjectIdentifier: Container] = [:]
    /// When on, each choice the story weighs (its choice point reached) is noted with whether it was offered,
    /// once for each choice point and outcome (the first time, with its text then), for `takeWeighedChoices()`
    /// (`pajama test`'s choices never offered). Most choices are weighed again and again the same way: after
    /// the first, noting one costs a set lookup.
    public var recordsWeighedChoices = false
    var weighedChoices: [(key: WeighedChoice.Key, point: ChoicePoint, text: String)] = []
    var everWeighed: Set<WeighedChoice.Key> = []
    /// Receives each error and warning after a continue; without it a continue with errors throws.
    public var onError: ((String, ErrorKind) -> Void)?

    public enum ErrorKind: Sendable { case error, warning }

    struct ExternalFunction {
        let function: ([InkValue]) throws -> InkValue?
        let lookaheadSafe: Bool
    }

    /// Loads compiled ink JSON text. `seed` fixes the story's random seed (ink picks one at random otherwise).
    public convenience init(json text: String, seed: Int? = nil) throws(StoryLoadError) {
        let document: JSON
        do {
            document = try JSONParser.parse(text, options: .ink)
        } catch {
            throw StoryLoadError("not valid JSON: \(error.description)")
        }
        try self.init(document: document, seed: seed)
    }

    /// Loads a compiled ink document already parsed (with `JSONParser.Options.ink`), for a caller that reads the
    /// same document for something else too (the ink bridge scans its tags).
    public init(document: JSON, seed: Int?) throws(StoryLoadError) {
        guard document.objectValue != nil else { throw StoryLoadError("the file is not a JSON object") }
        guard let version = document["inkVersion"]?.intValue else {
            throw StoryLoadError("ink version number not found. Are you sure it's a valid .ink.json file?")
        }
        if version > Story.inkVersionCurrent {
            throw StoryLoadError(
                "Version of ink used to build story (\(version)) was newer than the current version of the engine (\(Story.inkVersionCurrent))"
            )
        }
        if version < Story.inkVersionMinimumCompatible {
            throw StoryLoadError(
                "Version of ink used to build story (\(version)) is too old to be loaded by this version of the engine"
            )
        }
        usesLegacyGlue = version < Story.inkVersionWithoutLegacyGlue
        guard let rootToken = document["root"] else {
            throw StoryLoadError("Root node for ink not found. Are you sure it's a valid .ink.json file?")
        }
        if let defs = document["listDefs"] {
            listDefinitions = try RuntimeJSON.listDefinitions(from: defs)
        } else {
            listDefinitions = nil
        }
        guard let root = try RuntimeJSON.object(from: rootToken) as? Container else {
            throw StoryLoadError("the root of the story is not a container")
        }
        mainContentContainer = root
        do {
            try resetState(seed: seed)
        } catch {
            throw StoryLoadError("the global variable declarations failed: \(error.message)")
        }
    }

    // MARK: State

    /// Starts again from the beginning with fresh variables (the seed as given, or a new random one).
    public func resetState(seed: Int? = nil) throws(StoryError) {
        state = StoryState(story: self, seed: seed ?? Int.random(in: 0..<100))
        state.variablesState.onChange = { [unowned self] name, value in self.variableDidChange(name, value) }
        try resetGlobals()
    }

    func resetGlobals() throws(StoryError) {
        if mainContentContainer.namedContent["global decl"] != nil {
            let original = state.currentPointer
            try choosePath(Path("global decl"), incrementingTurnIndex: false)
            try continueInternal()
            state.currentPointer = original
        }
        state.variablesState.snapshotDefaultGlobals()
    }

    public func resetErrors() { state.resetErrors() }

    /// Ends the current flow's call stack (as ink's ResetCallstack).
    public func resetCallstack() { state.forceEnd() }

    /// The story's random seed (SEED_RANDOM changes it).
    public var storySeed: Int {
        get { state.storySeed }
        set {
            state.storySeed = newValue
            state.previousRandom = 0
        }
    }

    public var canContinue: Bool { state.canContinue }
    public var currentText: String { state.currentText }
    public var currentTags: [String] { state.currentTags }
    public var currentErrors: [String] { state.currentErrors }
    public var currentWarnings: [String] { state.currentWarnings }
    public var hasError: Bool { state.hasError }
    public var hasWarning: Bool { state.hasWarning }
    public var currentTurnIndex: Int { state.currentTurnIndex }

    /// The path the story is at (nil once it has ended).
    public var currentPathString: String? { state.currentPointer.pathString }

    public var currentChoices: [Choice] {
        var visible: [Choice] = []
        for choice in state.currentChoices where !choice.isInvisibleDefault {
            choice.index = visible.count
            visible.append(choice)
        }
        return visible
    }

    // MARK: Flows

    public var currentFlowName: String { state.currentFlow.name }
    public var currentFlowIsDefaultFlow: Bool { state.currentFlow.name == StoryState.defaultFlowName }
    public var aliveFlowNames: [String] { state.aliveFlowNames }

    public func switchFlow(_ name: String) { state.switchFlow(name) }
    public func switchToDefaultFlow() { state.switchToDefaultFlow() }
    public func removeFlow(_ name: String) throws(StoryError) { try state.removeFlow(name) }

    // MARK: Paths

    func contentAtPath(_ path: Path) -> SearchResult { mainContentContainer.contentAtPath(path) }

    func knotContainer(named name: String) -> Container? { mainContentContainer.namedContent[name] as? Container }

    func pointer(at path: Path) throws(StoryError) -> Pointer {
        guard path.length > 0 else { return .null }
        var pointer = Pointer.null
        let result: SearchResult
        let lengthToUse: Int
        if case let .index(i)? = path.lastComponent {
            lengthToUse = path.length - 1
            result = mainContentContainer.contentAtPath(path, partialPathLength: lengthToUse)
            pointer = Pointer(container: result.container, index: i)
        } else {
            lengthToUse = path.length
            result = mainContentContainer.contentAtPath(path)
            pointer = Pointer(container: result.container, index: -1)
        }
        if result.object == nil || (result.object === mainContentContainer && lengthToUse > 0) {
            throw StoryError("Failed to find content at path '\(path)', and no approximation of it was possible.")
        } else if result.approximate, let object = result.object {
            warning("Failed to find content at path '\(path)', so it was approximated to: '\(object.path)'.")
        }
        return pointer
    }

    /// The choices first weighed so (choice point and outcome) since the last call (with `recordsWeighedChoices`
    /// on), sorted.
    public func takeWeighedChoices() -> [WeighedChoice] {
        guard !weighedChoices.isEmpty else { return [] }
        defer { weighedChoices = [] }
        return weighedChoices.map { WeighedChoice(path: $0.point.pathString, text: $0.text, outcome: $0.key.outcome) }.sorted()
    }

    /// The paths of the named containers entered since the last call (with `recordsEnteredContainers` on),
    /// sorted; the record starts again empty.
    public func takeEnteredContainerPaths() -> [String] {
        defer { enteredContainers = [:] }
        return enteredContainers.values.map { $0.pathString }.sorted()
    }

    /// How many times the container at `path` (e.g. `knot.stitch`) has been visited.
    public func visitCount(atPath path: String) throws(StoryError) -> Int {
        guard let container = contentAtPath(Path(path)).correctObject as? Container else {
            throw StoryError("Content at path not found: \(path)")
        }
        return state.visitCounts[container.pathString] ?? 0
    }

    // MARK: Errors

    func warning(_ message: String) { addError(message, isWarning: true) }

    func addError(_ message: String, isWarning: Bool) {
        let kind = isWarning ? "WARNING" : "ERROR"
        let text: String
        if let path = state.currentPointer.path {
            text = "RUNTIME \(kind): (\(path)): \(message)"
        } else {
            text = "RUNTIME \(kind): \(message)"
        }
        state.addError(text, isWarning: isWarning)
        if !isWarning { state.forceEnd() }
    }
}

/// Why a compiled story could not be loaded.
public struct StoryLoadError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
