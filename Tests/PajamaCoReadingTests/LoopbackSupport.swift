import Foundation
import PajamaModel
import PajamaTestSupport
@testable import PajamaCoReading

/// A small story package on disk for a real host.
struct HostedFolder {
    let dir: TemporaryDirectory

    init() throws {
        dir = try TemporaryDirectory(prefix: "pajama-coread")
        _ = try dir.write("story.json", """
        {"format":1,"id":"shared","title":"Shared","version":"2","startBeatId":"start"}
        """)
        _ = try dir.write("beats/start.json", """
        {"id":"start","pages":[{"id":"p1","type":"text","lines":["one"]},{"id":"p2","type":"text","lines":["two"]}]}
        """)
        _ = try dir.write("assets/tap.txt", "tap")
    }
}

/// A real host on 127.0.0.1, any free port.
func startHost(_ folder: HostedFolder, token: String? = "secret-secret-42", owner: String = "bob", limits: HostLimits = HostLimits(),
               votes: Bool = false, log: @escaping @Sendable (String) -> Void = { _ in }) async throws -> CoReadingHost {
    let host = CoReadingHost(content: .folder(folder.dir.url), storyId: "shared", storyVersion: "2",
                             configuration: .init(port: 0, ownerName: owner, limits: limits, votes: votes), token: token, log: log)
    _ = try await host.start()
    return host
}

/// Lines a test collects (the host's log).
final class Lines: Sendable {
    private let lines = Locked<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

/// A follower whose events are recorded as they arrive; `stop()` cancels its connection.
final class RecordingFollower: Sendable {
    private final class Recorded: Sendable {
        let events = Locked<[FollowerEvent]>([])
    }
    private let recorded = Recorded()
    private let task = Locked<Task<Void, Never>?>(nil)

    init(url: String, token: String, name: String, backoff: ReconnectBackoff = ReconnectBackoff(first: .milliseconds(20)),
         ballot: FollowerBallot? = nil) {
        let stream = FollowerConnection.connect(to: URL(string: url)!, token: token, name: name, backoff: backoff, ballot: ballot)
        let running = Task { [recorded] in
            for await event in stream { recorded.events.withLock { $0.append(event) } }
        }
        task.withLock { $0 = running }
    }

    var events: [FollowerEvent] { recorded.events.withLock { $0 } }

    var locations: [StoryLocation] {
        events.flatMap { event -> [StoryLocation] in
            switch event {
            case .location(let l): [l]
            case .welcome(let w, _): w.location.map { [$0] } ?? []
            default: []
            }
        }
    }

    var lastLocation: StoryLocation? { locations.last }

    /// The votes as last told (a `votes` message, or a welcome's).
    var lastVotes: SessionVotes? {
        events.reversed().lazy.compactMap { event -> SessionVotes? in
            switch event {
            case .votes(let votes): votes
            case .welcome(let welcome, _): welcome.votes
            default: nil
            }
        }.first
    }

    var welcomes: [SessionWelcome] {
        events.compactMap { if case .welcome(let w, _) = $0 { w } else { nil } }
    }

    var failure: FollowerError? {
        events.lazy.compactMap { if case .failed(let e) = $0 { e } else { nil } }.first
    }

    func stop() { task.withLock { $0?.cancel() } }

    deinit { stop() }
}

func at(_ page: Int, line: Int = 0) -> StoryLocation { StoryLocation(beatId: "start", pageId: "p\(page)", lineIndex: line) }
