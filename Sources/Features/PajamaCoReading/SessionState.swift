import PajamaModel

/// The minimal shared state of a co-reading session: the story, the owner's location, who follows.
/// The host's session keeps it; a follower rebuilds it from the messages it gets (`apply`).
public struct SessionState: Sendable, Equatable {
    public var story: SessionStory?
    public var owner: String
    /// Always fully resolved (beat, page, line); nil before the owner's first page.
    public var location: StoryLocation?
    /// The followers' names, in the order they joined (a follower told only the count has none).
    public var participants: [String]
    /// How many follow: the number of `participants` on the host; a follower's as last told.
    public var followers: Int
    /// Set once the owner ended the session.
    public var endedBy: String?
    /// The owner's beat, for an ink story.
    public var beat: BeatSync?
    /// The followers' votes on the owner's page, in a session that takes votes (nil: it takes none).
    public var votes: SessionVotes?

    public init(story: SessionStory? = nil, owner: String, location: StoryLocation? = nil, participants: [String] = [],
                endedBy: String? = nil) {
        self.story = story
        self.owner = owner
        self.location = location
        self.participants = participants
        followers = participants.count
        self.endedBy = endedBy
    }

    /// What a follower joining now gets; nil until a story is selected.
    public var welcome: SessionWelcome? {
        story.map { SessionWelcome(story: $0, owner: owner, location: location, participants: participants, followers: followers, beat: beat, votes: votes) }
    }

    /// The state after `message` (a follower's view; `hello`, `cue` and `vote` change nothing).
    public mutating func apply(_ message: SessionMessage) {
        switch message {
        case .hello, .cue, .vote: break
        case .welcome(let welcome):
            story = welcome.story
            owner = welcome.owner
            location = welcome.location
            participants = welcome.participants
            followers = welcome.followers
            beat = welcome.beat
            votes = welcome.votes
            endedBy = nil
        case .location(let new): location = new
        case .beat(let sync): beat = sync
        case .participants(let names):
            participants = names
            followers = names.count
        case .followers(let count):
            participants = []
            followers = count
        case .votes(let tally): votes = tally
        case .end(let name): endedBy = name
        }
    }
}
