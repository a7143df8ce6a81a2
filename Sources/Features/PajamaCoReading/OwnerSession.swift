import PajamaModel
import PajamaReading

/// What the owner's reader tells its co-reading session, as a value of closures (isowords' client shape):
/// `.live(host)` publishes through a `CoReadingHost`; tests take `.test()`, which records what it is told.
public struct OwnerSession: Sendable {
    /// The owner's beat of an ink story (how to make it), before a location in it.
    public var publishBeat: @Sendable (BeatSync) async -> Void
    /// Where the owner is: every page shown (a new page, a revealed line, back), and how many choices it has.
    public var publishLocation: @Sendable (StoryLocation, Int) async -> Void
    /// A tap or choice sound the owner cued (followers play it on their own sound servers).
    public var cue: @Sendable (AssetPath, SoundCue) async -> Void
    /// The followers' names, each time they change.
    public var participantChanges: @Sendable () -> AsyncStream<[String]>
    /// The followers' votes on the owner's page, each time they change (nothing in a session without votes).
    public var voteChanges: @Sendable () -> AsyncStream<SessionVotes>

    public init(
        publishBeat: @escaping @Sendable (BeatSync) async -> Void, publishLocation: @escaping @Sendable (StoryLocation, Int) async -> Void,
        cue: @escaping @Sendable (AssetPath, SoundCue) async -> Void, participantChanges: @escaping @Sendable () -> AsyncStream<[String]>,
        voteChanges: @escaping @Sendable () -> AsyncStream<SessionVotes> = { AsyncStream { $0.finish() } }
    ) {
        self.publishBeat = publishBeat
        self.publishLocation = publishLocation
        self.cue = cue
        self.participantChanges = participantChanges
        self.voteChanges = voteChanges
    }

    /// The session `host` runs.
    public static func live(_ host: CoReadingHost) -> OwnerSession {
        OwnerSession(publishBeat: { await host.publish(beat: $0) }, publishLocation: { await host.publish($0, choices: $1) },
                     cue: { await host.cue($0, $1) }, participantChanges: { host.participantChanges }, voteChanges: { host.voteChanges })
    }

    /// What a test session was told.
    package enum Told: Sendable, Equatable {
        case beat(BeatSync)
        case location(StoryLocation)
        case cue(AssetPath, SoundCue)
    }

    /// A session that tells the test what it is told, in order (`told`), with the followers' changes the test
    /// yields (`followers`).
    package static func test() -> (session: OwnerSession, told: AsyncStream<Told>, followers: AsyncStream<[String]>.Continuation) {
        let (told, tell) = AsyncStream<Told>.makeStream()
        let (names, followers) = AsyncStream<[String]>.makeStream()
        let session = OwnerSession(publishBeat: { tell.yield(.beat($0)) }, publishLocation: { location, _ in tell.yield(.location(location)) },
                                   cue: { tell.yield(.cue($0, $1)) }, participantChanges: { names })
        return (session, told, followers)
    }
}
