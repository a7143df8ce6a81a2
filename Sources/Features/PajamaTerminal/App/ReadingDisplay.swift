import PajamaModel

/// What co-reading tells the reader, whichever way the reading is shown (the full screen's
/// `ReaderController`, plain mode's `PlainReader`).
@MainActor
public protocol ReadingDisplay: AnyObject {
    /// The co-reading role changed (followers came or went, the connection failed).
    func setRole(_ role: ReaderRole)
    /// The owner of the followed session ended it: this reader reads on solo.
    func sessionEnded()
    /// Something to tell the reader once (the connection lost, back).
    func notice(_ text: String)
    /// The co-readers' votes on the owner's page changed (a session that takes votes).
    func showVotes(_ votes: ChoiceVotes)
    /// Where this follower's votes go: the choice voted for on the owner's page at a location.
    var onVote: (@MainActor (StoryLocation, Int) -> Void)? { get set }
}

extension ReaderController: ReadingDisplay {}
extension PlainReader: ReadingDisplay {}
