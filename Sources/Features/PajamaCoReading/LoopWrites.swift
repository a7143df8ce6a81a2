import NIOCore
import PajamaModel

/// The followers of one event loop with something to send: the first one added schedules a job on the
/// loop, and that job writes to every follower added until it runs (`FollowerChannelWriter.write`), in
/// the order they were added (a broadcast's order: the follower that joined first is written first).
/// So a broadcast to the n followers of a loop costs the loop one job, and the session n locks.
final class LoopWrites: Sendable {
    let eventLoop: any EventLoop
    private let waiting = Locked<[FollowerChannelWriter]>([])
    private let jobsRun = Locked(0)

    init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    /// `writer` writes in the loop's next job (scheduled now if none is).
    func add(_ writer: FollowerChannelWriter) {
        let first = waiting.withLock { waiting -> Bool in
            waiting.append(writer)
            return waiting.count == 1
        }
        if first { eventLoop.execute { self.run() } }
    }

    /// Jobs run on the loop so far (tests).
    var jobs: Int { jobsRun.withLock { $0 } }

    private func run() {
        jobsRun.withLock { $0 += 1 }
        let writers = waiting.withLock { waiting -> [FollowerChannelWriter] in
            defer { waiting.removeAll(keepingCapacity: true) }
            return waiting
        }
        for writer in writers { writer.write() }
    }

    /// One `LoopWrites` per event loop, made on first use (a host's sockets share them).
    final class PerLoop: Sendable {
        private let loops = Locked<[ObjectIdentifier: LoopWrites]>([:])

        init() {}

        func writes(for eventLoop: any EventLoop) -> LoopWrites {
            loops.withLock { loops in
                let key = ObjectIdentifier(eventLoop)
                if let writes = loops[key] { return writes }
                let writes = LoopWrites(eventLoop: eventLoop)
                loops[key] = writes
                return writes
            }
        }
    }
}
