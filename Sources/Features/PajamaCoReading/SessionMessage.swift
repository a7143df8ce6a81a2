import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaModel
import PajamaReading

/// The story a session reads: what a follower needs to open it on its own.
public struct SessionStory: Sendable, Equatable, Codable {
    /// `story.json`'s id and version: a follower checks it opened the same story.
    public var id: String
    public var version: String?
    /// Where the story package is: an absolute `http(s)://` URL (a story the owner reads from a web server
    /// or CDN), or `/` for the host itself (resolved against the join URL by the follower).
    public var url: String
    /// For a story made from files of its own (ink, Twine...): the format's name (`StoryFormat.name`) and the
    /// files' names at `url`, which a follower opens as the owner does; nil and empty for a package.
    public var format: String?
    public var files: [String]

    public init(id: String, version: String?, url: String, format: String? = nil, files: [String] = []) {
        self.id = id
        self.version = version
        self.url = url
        self.format = format
        self.files = files
    }

    private enum CodingKeys: String, CodingKey {
        case id, version, url, format, files
        /// What a host before the format seam sent for `files`: the names one a line, and no format.
        case legacyFiles = "ink"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        version = try container.decodeIfPresent(String.self, forKey: .version)
        url = try container.decode(String.self, forKey: .url)
        format = try container.decodeIfPresent(String.self, forKey: .format)
        if let files = try container.decodeIfPresent([String].self, forKey: .files) {
            self.files = files
        } else {
            files = (try container.decodeIfPresent(String.self, forKey: .legacyFiles) ?? "").split(separator: "\n").map(String.init)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encodeIfPresent(version, forKey: .version)
        try container.encode(url, forKey: .url)
        try container.encodeIfPresent(format, forKey: .format)
        if !files.isEmpty { try container.encode(files, forKey: .files) }
    }

    /// The package's URL as a follower who joined at `joinURL` reaches it.
    public func packageURL(joinedAt joinURL: URL) -> URL? {
        URL(string: url, relativeTo: joinURL)?.absoluteURL
    }
}

/// What the owner has the session know at once (the welcome a follower gets on joining or rejoining).
public struct SessionWelcome: Sendable, Equatable {
    public var story: SessionStory
    /// The owner's name ("NAME ended the session", "following NAME").
    public var owner: String
    /// The owner's current location, always fully resolved (beat, page, line); nil before the first page.
    public var location: StoryLocation?
    /// The followers' names, in the order they joined: empty in a welcome to a follower that said it
    /// wants only the count (`hello`'s `countOnly`; every reader since protocol addition 1.1).
    public var participants: [String]
    /// How many follow (the joining follower among them).
    public var followers: Int
    /// The owner's beat, for an ink story (`BeatSync`); nil otherwise.
    public var beat: BeatSync?
    /// Published through a relay node (`RelayPublisher`): the node takes no message from a follower, so one
    /// that said hello knows at once the socket will be closed for it, and listens on a new one instead.
    public var viaRelay = false
    /// The followers' votes on the owner's page, when the owner asked for votes (`pajama host --votes`);
    /// nil: this session takes no votes.
    public var votes: SessionVotes?

    /// `followers`: nil for the number of `participants`.
    public init(story: SessionStory, owner: String, location: StoryLocation?, participants: [String], followers: Int? = nil,
                beat: BeatSync? = nil, votes: SessionVotes? = nil) {
        self.story = story
        self.owner = owner
        self.location = location
        self.participants = participants
        self.followers = followers ?? participants.count
        self.beat = beat
        self.votes = votes
    }

    /// The same welcome with the count only (no names): what a `countOnly` follower gets.
    public var countOnly: SessionWelcome {
        var welcome = self
        welcome.participants = []
        return welcome
    }

    /// The same welcome marked as published through a relay node.
    public var throughRelay: SessionWelcome {
        var welcome = self
        welcome.viaRelay = true
        return welcome
    }
}

/// The followers' votes on the owner's choice page (`pajama host --votes`): advice, never a move.
public struct SessionVotes: Sendable, Equatable {
    /// The page voted on: the owner's location (nil before the owner's first page).
    public var location: StoryLocation?
    /// Votes for each choice of that page (0-based), as many as it has choices; empty on a page without.
    public var counts: [Int]

    public init(location: StoryLocation?, counts: [Int]) {
        self.location = location
        self.counts = counts
    }

    /// The most choices a tally counts (a page of more takes no votes past it).
    public static let maximumChoices = 512

    /// How many voted.
    public var total: Int { counts.reduce(0, +) }
}

/// One message of the co-reading protocol: a JSON object `{"v":1,"type":...}` in one WebSocket text
/// message of at most `SessionCodec.maximumSize` bytes. Followers say `hello`; the host says the rest.
public enum SessionMessage: Sendable, Equatable {
    /// Follower to host, first and only: who joins. `countOnly`: the follower wants the number of
    /// followers (`followers`), not their names (`participants`); a reader before this addition omits it
    /// and gets the names.
    case hello(name: String, countOnly: Bool = false)
    /// The whole shared state, on joining (and rejoining after a dropped connection).
    case welcome(SessionWelcome)
    /// The owner is now here.
    case location(StoryLocation)
    /// The owner entered this beat of an ink story (sent before its location): how to make it, and the hash
    /// of the state it starts from.
    case beat(BeatSync)
    /// The owner triggered a tap or choice sound: followers play the same file.
    case cue(AssetPath, SoundCue)
    /// The followers now connected (to a follower that did not say `countOnly`).
    case participants([String])
    /// How many followers are now connected (to a follower that said `countOnly`): one small message
    /// whatever the crowd, where `participants` grows with it.
    case followers(Int)
    /// The owner ended the session (quit).
    case end(name: String)
    /// Follower to host, after hello, in a session that takes votes: this follower's vote on the owner's
    /// choice page at `location` (0-based; nil takes it back). A newer vote replaces it.
    case vote(location: StoryLocation, choice: Int?)
    /// The votes on the owner's page now (at most a few a second, however many vote).
    case votes(SessionVotes)

    /// The `type` field.
    public var type: String {
        switch self {
        case .hello: "hello"
        case .welcome: "welcome"
        case .location: "location"
        case .beat: "beat"
        case .cue: "cue"
        case .participants: "participants"
        case .followers: "followers"
        case .end: "end"
        case .vote: "vote"
        case .votes: "votes"
        }
    }
}
