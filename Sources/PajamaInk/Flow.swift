/// One flow of a story: its own call stack, output and choices (ink's multiple flows).
final class Flow {
    let name: String
    var callStack: CallStack
    var outputStream: [InkObject] = []
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
    }
}
