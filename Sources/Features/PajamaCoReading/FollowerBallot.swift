import PajamaBasics
import PajamaModel

/// A follower's vote, in a session that takes votes (`pajama host --votes`): the reader casts it here, and
/// the follower's connection sends it on its socket (to a relay node: as an HTTP POST the node proxies to
/// the owner's host), and again on the next connection after a reconnection while the owner is still on
/// that page (the host forgets the votes of a follower that left).
public final class FollowerBallot: Sendable {
    private struct Value: Sendable {
        /// The vote as last cast: the page and the choice (nil: taken back).
        var vote: (location: StoryLocation, choice: Int?)?
        /// The socket that sends it now: its number and what it writes.
        var socket: (id: Int, texts: AsyncStream<String>.Continuation)?
        var nextSocket = 0
    }

    private let value = Locked(Value())
    /// Who votes, to a relay node (which carries no socket of this follower to the host): random, 128 bits.
    let voter = HostAccess.randomToken()

    public init() {}

    /// The reader votes for `choice` (0-based; nil takes the vote back) on the owner's page at `location`:
    /// sent at once when a socket is open, else when one opens on that page.
    public func cast(_ choice: Int?, at location: StoryLocation) {
        let text = SessionCodec.encode(.vote(location: location, choice: choice))
        value.withLock { value in
            value.vote = (location, choice)
            value.socket?.texts.yield(text)
        }
    }

    /// A socket of a session that takes votes was welcomed with the owner at `location`: what it must write
    /// (the vote on that page, if one was cast, then each vote cast), until `detach(id)`.
    func attach(at location: StoryLocation?) -> (id: Int, texts: AsyncStream<String>) {
        let (texts, input) = AsyncStream<String>.makeStream()
        let id = value.withLock { value -> Int in
            value.socket?.texts.finish()
            defer { value.nextSocket += 1 }
            value.socket = (value.nextSocket, input)
            if let vote = value.vote, let choice = vote.choice, vote.location == location {
                input.yield(SessionCodec.encode(.vote(location: vote.location, choice: choice)))
            }
            return value.nextSocket
        }
        return (id, texts)
    }

    /// Socket `id` closed: nothing more is written to it.
    func detach(_ id: Int) {
        value.withLock { value in
            guard value.socket?.id == id else { return }
            value.socket?.texts.finish()
            value.socket = nil
        }
    }
}
