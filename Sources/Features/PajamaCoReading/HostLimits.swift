#if canImport(Glibc)
import Glibc
#endif

/// What a host allows anyone who can reach its port, whoever they are: how many followers, how many
/// connections, how long a request or a socket may take, how large a request or a message may be, and how
/// fast wrong tokens may be tried (docs/coreading.md, "Limits"). The defaults follow nginx's and
/// Hummingbird's production advice: refuse early, time out what is slow, cap what is many.
public struct HostLimits: Sendable, Equatable {
    /// Followers at once; one more gets HTTP 503 "the session is full".
    public var followerCap: Int
    /// Open connections at once (HTTP and sockets); past it the host stops accepting until one closes, so
    /// the owner's own files and beat loads always have descriptors. Nil: half the process's descriptor
    /// limit (`ulimit -n`), at most 4,096 (`defaultConnectionBudget`).
    public var connectionBudget: Int?
    /// A request's head (request line and headers) must arrive whole within this (slowloris); else 408.
    public var headerTimeout: Duration
    /// An HTTP connection with no request in this long is closed; a socket that answers no ping in this long
    /// is closed.
    public var idleTimeout: Duration
    /// A follower's socket must say hello within this; else it is closed (1008).
    public var helloTimeout: Duration
    /// The request line (method, path, version) at most this many bytes; else 414.
    public var requestLineLimit: Int
    /// The whole head at most this many bytes; else 431.
    public var headLimit: Int
    /// A message from a follower at most this many bytes, counted while it arrives (frame by frame); else
    /// the socket is closed with 1009.
    public var messageLimit: Int
    /// Wrong tokens one address may try in `wrongTokenWindow` before it is slowed down.
    public var wrongTokenBurst: Int
    public var wrongTokenWindow: Duration
    /// The first pause of an address slowed down (HTTP 429 for every wrong or missing token it sends
    /// meanwhile, the right token let in); each burst after doubles it, up to `longestPause`.
    public var firstPause: Duration
    public var longestPause: Duration
    /// A download (a file's body) that makes no progress this long, its client taking not one more chunk of
    /// `PackageFiles.chunkSize`, is closed: a follower that asks for a big picture and reads nothing holds
    /// only its socket, and only this long.
    public var downloadStallTimeout: Duration
    /// After the owner quits, how long the host at most goes on serving the story's files to the followers
    /// still connected (reading on alone); it stops sooner when the last one leaves.
    public var servingAfterEnd: Duration
    /// Votes one follower may send in a second (`pajama host --votes`); one more closes its socket (1008):
    /// a reader changes its mind a few times a second at most, and each vote costs the session's actor.
    public var votesPerSecond: Int

    public init(followerCap: Int = 256, connectionBudget: Int? = nil, headerTimeout: Duration = .seconds(10),
                idleTimeout: Duration = .seconds(60), helloTimeout: Duration = .seconds(10), requestLineLimit: Int = 8 * 1024,
                headLimit: Int = 16 * 1024, messageLimit: Int = SessionCodec.maximumSize, wrongTokenBurst: Int = 5,
                wrongTokenWindow: Duration = .seconds(10), firstPause: Duration = .seconds(1), longestPause: Duration = .seconds(60),
                servingAfterEnd: Duration = .seconds(600), downloadStallTimeout: Duration = .seconds(30),
                votesPerSecond: Int = 20) {
        self.followerCap = followerCap
        self.connectionBudget = connectionBudget
        self.headerTimeout = headerTimeout
        self.idleTimeout = idleTimeout
        self.helloTimeout = helloTimeout
        self.requestLineLimit = requestLineLimit
        self.headLimit = headLimit
        self.messageLimit = messageLimit
        self.wrongTokenBurst = wrongTokenBurst
        self.wrongTokenWindow = wrongTokenWindow
        self.firstPause = firstPause
        self.longestPause = longestPause
        self.servingAfterEnd = servingAfterEnd
        self.downloadStallTimeout = downloadStallTimeout
        self.votesPerSecond = votesPerSecond
    }

    /// The connection budget in force: the one given, else half the descriptor limit (at least 8, at most 4,096).
    public var budget: Int { connectionBudget ?? Self.defaultConnectionBudget(descriptorLimit: Self.descriptorLimit()) }

    /// Half of `descriptorLimit`, within 8...4096: the other half stays for the reader (story files, the
    /// disk cache, progress, sound, the log).
    public static func defaultConnectionBudget(descriptorLimit: Int) -> Int {
        min(4096, max(8, descriptorLimit / 2))
    }

    /// The process's soft limit on open descriptors (`ulimit -n`).
    public static func descriptorLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        return Int(clamping: min(limit.rlim_cur, 1 << 20))
    }
}
