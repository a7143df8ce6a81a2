import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaModel
import PajamaReading

/// What a follower's connection reports, in order.
public enum FollowerEvent: Sendable, Equatable {
    /// Connected (or reconnected): the story (its package URL, resolved against the join URL), the owner,
    /// the owner's current location and the followers. Catching up after a drop is this event again.
    case welcome(SessionWelcome, storyURL: URL)
    /// The owner moved.
    case location(StoryLocation)
    /// The owner entered this beat of an ink story (before its location).
    case beat(BeatSync)
    /// The owner triggered a tap or choice sound.
    case cue(AssetPath, SoundCue)
    /// How many follow now (a follower asks for the count, not the names: the host's `followers`, or
    /// the number of names in an older host's `participants`).
    case followers(Int)
    /// The followers' votes on the owner's page now (a session that takes votes; its welcome has the first).
    case votes(SessionVotes)
    /// The owner ended the session. The stream ends when the host stops serving the story (the follower's
    /// connection stays open until then, so the host knows someone still reads), or when it is dropped.
    case ended(owner: String)
    /// The connection dropped; trying again (attempt 1, 2, ...) after a pause.
    case reconnecting(attempt: Int, reason: String)
    /// The session cannot go on; the stream ends.
    case failed(FollowerError)
}

/// Why a follower cannot follow.
public enum FollowerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The host answered 401: the token is not the host's.
    case tokenRefused
    /// The host answered 503: it has as many followers as it takes (`detail`: its words, "256 following").
    case sessionFull(url: String, detail: String)
    /// The host answered 429: this address tried too many wrong tokens and must wait.
    case slowedDown(url: String, detail: String)
    /// Nothing answered at the URL (refused connection, unknown host, timeout).
    case unreachable(url: String, reason: String)
    /// The host broke the protocol, or is not a pajama host.
    case protocolProblem(url: String, reason: String)
    /// The connection dropped and every attempt to reconnect failed.
    case lost(url: String, attempts: Int, reason: String)
    /// An `http://` URL, and the host there speaks TLS: `suggested` is the same URL with `https://`.
    case speaksTLS(url: String, suggested: String)

    public var description: String {
        switch self {
        case .tokenRefused: "the host refused the token"
        case .sessionFull(let url, let detail): "the session at \(url) is full\(detail.isEmpty ? "" : " (\(detail))")"
        case .slowedDown(let url, let detail): "the host at \(url) refused: \(detail)"
        case .unreachable(let url, let reason): "cannot reach the host at \(url): \(reason)"
        case .protocolProblem(let url, let reason): "the host at \(url) is not a co-reading session: \(reason)"
        case .lost(let url, let attempts, let reason):
            "lost the session at \(url) (\(attempts) attempts to reconnect failed; last: \(reason))"
        case .speaksTLS(let url, let suggested): "the host at \(url) speaks TLS (try \(suggested))"
        }
    }
}

/// How a dropped connection is tried again: `first`, doubling up to `longest`, at most `attempts` times.
public struct ReconnectBackoff: Sendable, Equatable {
    public var first: Duration
    public var longest: Duration
    public var attempts: Int

    public init(first: Duration = .milliseconds(100), longest: Duration = .seconds(2), attempts: Int = 30) {
        self.first = first
        self.longest = longest
        self.attempts = attempts
    }

    /// The pause before attempt `n` (1-based).
    public func delay(before attempt: Int) -> Duration {
        var delay = first
        for _ in 1..<max(1, attempt) where delay < longest { delay *= 2 }
        return min(delay, longest)
    }
}
