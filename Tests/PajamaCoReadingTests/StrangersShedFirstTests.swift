import AsyncHTTPClient
import Foundation
import PajamaHTTP
import PajamaTestSupport
import Testing
@testable import PajamaCoReading

/// Followers are not starved by strangers (issue 42, item 3): near the connection budget, connections
/// that have not sent their request's head are closed, oldest first, so a follower's connection is accepted
/// and answered at once instead of waiting in the backlog until the header timeout frees places. Before,
/// a real `pajama join` under 800 silent sockets at `ulimit -n 256` took 75 s to show a page.
@Suite(.serialized) struct StrangersShedFirstTests {
    static let token = "secret-secret-42"

    @Test func aFollowerGetsItsFirstPageWhileSilentStrangersOverfillTheBudget() async throws {
        let folder = try HostedFolder()
        let log = Lines()
        let budget = 32
        // A header timeout far longer than the bound below: only shedding can let the follower in in time.
        let host = try await startHost(folder, limits: HostLimits(connectionBudget: budget, headerTimeout: .seconds(300)),
                                       log: { log.append($0) })
        let threshold = budget - ConnectionRoster.reserve(budget: budget)
        // Twice the budget of strangers that connect and send nothing, all taken from the backlog.
        var strangers: [RawConnection] = []
        for _ in 0..<(2 * budget) { strangers.append(try RawConnection(port: host.port)) }
        // A shed is logged as its close starts; the counts drop when the close is done, so both are waited for.
        #expect(await eventually { log.all.count >= 2 * budget - threshold && host.connectionCounts == (open: threshold, waiting: threshold) },
                "\(log.all.count) shed, \(host.connectionCounts)")
        #expect(log.all.first?.hasPrefix("closed a connection from 127.0.0.1: no request yet, and \(threshold + 1) of the host's \(budget) connections are open") == true,
                "\(log.all)")

        // A follower joins and reads its first beat (the first page), within a bound far under the header timeout.
        let started = ContinuousClock.now
        let (page, following) = try await withDeadline(.seconds(60)) {
            var events = FollowerConnection.connect(to: URL(string: host.joinURL)!, token: Self.token, name: "ann").makeAsyncIterator()
            guard case .welcome(_, let storyURL)? = await events.next() else { return ("", [String]()) }
            let source = HTTPStorySource(baseURL: storyURL, authorization: "Bearer \(Self.token)")
            let page = String(decoding: try await source.read("beats/start.json"), as: UTF8.self)
            return (page, await host.session.current.participants)
        }
        let took = ContinuousClock.now - started
        #expect(page.contains("\"p1\""), "\(page)")
        // Measured here: about 0.1 s; a slow machine has 100 times that.
        #expect(took < .seconds(10), "\(took)")
        // The follower's connections were not shed; strangers were, and the budget was never passed.
        #expect(host.connectionCounts.open <= budget)
        #expect(following == ["ann"])
        withExtendedLifetime(strangers) {}
        await host.end()
    }
}
