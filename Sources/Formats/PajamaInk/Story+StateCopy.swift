import PajamaJSON

/// The story's state kept in memory: what `saveStateJSON` and `loadStateJSON` do, without writing the state
/// as JSON and parsing it back. A reader that makes a page after another keeps the state at each choice point
/// this way (a state save and load cost a quarter of a choice's time in `pajama play`).
extension Story {
    /// A copy of a story's state, restored with `restoreState(_:)` any number of times. It is never changed
    /// (each restore works on a copy of it) and belongs to the story that made it.
    public final class StateCopy {
        fileprivate let state: StoryState
        fileprivate unowned let story: Story

        fileprivate init(state: StoryState, story: Story) {
            self.state = state
            self.story = story
        }
    }

    /// The current state, kept. The story goes on with a copy, as ink's own look-ahead past a newline does
    /// (`stateSnapshot()`): the kept state is never run again, only copied.
    public func copyState() -> StateCopy {
        let kept = state!
        state = StoryState(copying: kept)
        return StateCopy(state: kept, story: self)
    }

    /// Goes back to a state kept by `copyState()` of this story, as `loadStateJSON` with that state's JSON.
    public func restoreState(_ copy: StateCopy) {
        precondition(copy.story === self, "a state copy belongs to the story that made it")
        state = StoryState(copying: copy.state)
        snapshotAtLastNewline = nil
    }

    /// The state `copy` leads to when its choice `index` is taken, kept as `copyState()` keeps one. The story's
    /// own state, its look-ahead and its record of entered containers are left as they were.
    public func copyState(choosing index: Int, after copy: StateCopy) throws(StoryError) -> StateCopy {
        precondition(copy.story === self, "a state copy belongs to the story that made it")
        let (live, snapshot, entered) = (state, snapshotAtLastNewline, enteredContainers)
        defer { (state, snapshotAtLastNewline, enteredContainers) = (live, snapshot, entered) }
        state = StoryState(copying: copy.state)
        snapshotAtLastNewline = nil
        try chooseChoiceIndex(index)
        return StateCopy(state: state, story: self)
    }

    /// The JSON `saveStateJSON` gives in the state kept by `copyState()`, written only now: a reader that
    /// keeps the state at each beat's start writes it out only for what reads it.
    public func stateJSON(of copy: StateCopy) -> String {
        precondition(copy.story === self, "a state copy belongs to the story that made it")
        return JSONWriter.write(copy.state.json())
    }
}
