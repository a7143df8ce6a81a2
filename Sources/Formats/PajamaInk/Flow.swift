/// One flow of a story: its own call stack, output and choices (ink's multiple flows).
final class Flow {
    let name: String
    var callStack: CallStack
    /// Changed only through `appendOutput`, `removeOutput` and `replaceOutput`, which keep `copied` true.
    private(set) var outputStream: [InkObject] = []
    /// For a copy (`init(copying:)`, as the look-ahead past a newline makes): the flow it copies, and how many
    /// objects at the head of the output stream are still that flow's (each change but an append lowers it),
    /// so what was appended since is known without making the text again (`StoryState.outputAppended`).
    private(set) var copied: (from: ObjectIdentifier, unchangedPrefix: Int)?
    var currentChoices: [Choice] = []

    init(name: String, root: Container) {
        self.name = name
        callStack = CallStack(root: root)
    }

    init(copying other: Flow) {
        name = other.name
        callStack = CallStack(copying: other.callStack)
        outputStream = other.outputStream
        currentChoices = other.currentChoices
        copied = (ObjectIdentifier(other), other.outputStream.count)
    }

    func appendOutput(_ object: InkObject) {
        outputStream.append(object)
    }

    func removeOutput(at index: Int) {
        outputStream.remove(at: index)
        outputChanged(from: index)
    }

    func removeLastOutput(_ count: Int) {
        outputStream.removeLast(count)
        outputChanged(from: outputStream.count)
    }

    /// Replaces the output with `objects`, the same as before up to `index`.
    func replaceOutput(_ objects: [InkObject], changedFrom index: Int) {
        outputStream = objects
        outputChanged(from: index)
    }

    private func outputChanged(from index: Int) {
        if let copied { self.copied = (copied.from, min(copied.unchangedPrefix, index)) }
    }
}
