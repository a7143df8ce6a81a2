/// Who turns the pages of this reader (co-reading, issue 13).
public enum ReaderRole: Sendable, Equatable {
    /// Reading alone.
    case solo
    /// The owner of a co-reading session: `join` is the command followers run (shown in the help overlay),
    /// `followers` how many follow now (the status line says "hosting · N following").
    case host(join: String, followers: Int)
    /// Following `owner`: navigation moves nobody and says "following NAME"; quit, help, sound, theme and
    /// scrolling still work.
    case follower(owner: String)
}
