/// A choice offered to the reader: its text, tags and where it leads.
public final class Choice {
    public internal(set) var text: String = ""
    public internal(set) var tags: [String] = []
    public internal(set) var index = 0
    public internal(set) var sourcePath = ""
    var targetPath = Path()
    var isInvisibleDefault = false
    var originalThreadIndex = 0
    var threadAtGeneration: CallStack.Thread?

    init() {}

    /// The path the choice leads to, as ink writes it.
    public var pathStringOnChoice: String { targetPath.componentsString }
}
