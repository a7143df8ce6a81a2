import DequeModule
import NIOCore
import PajamaModel

/// The host's open connections, and which of them have not yet sent their request's head whole: when the
/// connection budget is near full, each new connection sheds the oldest of those, so strangers who connect
/// and say nothing (a slowloris without the token) cannot keep a follower waiting in the backlog behind
/// them until the header timeout frees their places (issue 42, item 3: 75 s at `ulimit -n 256` under 800
/// such sockets). A connection whose head arrived is never shed: a follower's requests carry the token in
/// their head, and one without it is answered 401 and closed at once. `reserve` places stay free for them.
final class ConnectionRoster: Sendable {
    private struct Open {
        var count = 0
        /// The connections whose head has not arrived, by id.
        var waiting: [Int: any Channel] = [:]
        /// Their ids, oldest first (an id no longer waiting is skipped when it comes up).
        var order: Deque<Int> = []
        var nextID = 0
    }

    /// The connection budget (`HostLimits.budget`) and the places kept for connections whose head arrived.
    let budget: Int
    let reserve: Int
    private let open = Locked(Open())
    private let shed: @Sendable (SocketAddress?, _ open: Int) -> Void

    /// `shed` is told the address of each connection shed and how many were open then (a log line).
    init(budget: Int, shed: @escaping @Sendable (SocketAddress?, _ open: Int) -> Void) {
        self.budget = budget
        reserve = Self.reserve(budget: budget)
        self.shed = shed
    }

    /// An eighth of the budget, at least 1: past `budget - reserve` open connections, strangers are shed.
    static func reserve(budget: Int) -> Int { max(1, budget / 8) }

    /// Connections open now, and those of them whose head has not arrived (tests).
    var counts: (open: Int, waiting: Int) { open.withLock { ($0.count, $0.waiting.count) } }

    /// A connection was accepted; returns its id. Sheds the oldest connection still waiting for its head
    /// when more than `budget - reserve` are open (this one too, when it is the only one waiting).
    func opened(_ channel: any Channel) -> Int {
        let (id, dropped, count) = open.withLock { open -> (Int, (any Channel)?, Int) in
            let id = open.nextID
            open.nextID += 1
            open.count += 1
            open.waiting[id] = channel
            open.order.append(id)
            guard open.count > budget - reserve else { return (id, nil, open.count) }
            while let oldest = open.order.popFirst() {
                if let channel = open.waiting.removeValue(forKey: oldest) { return (id, channel, open.count) }
            }
            return (id, nil, open.count)
        }
        if let dropped {
            shed(dropped.remoteAddress, count)
            dropped.close(promise: nil)
        }
        return id
    }

    /// The connection's head arrived whole: it is no longer shed.
    func arrived(_ id: Int) {
        open.withLock { open in
            guard open.waiting.removeValue(forKey: id) != nil else { return }
            Self.compact(&open)
        }
    }

    /// The connection closed.
    func closed(_ id: Int) {
        open.withLock { open in
            open.count -= 1
            if open.waiting.removeValue(forKey: id) != nil { Self.compact(&open) }
        }
    }

    /// Drops the ids no longer waiting once they are most of the queue, so it stays within twice the
    /// waiting connections (and a few).
    private static func compact(_ open: inout Open) {
        guard open.order.count > 2 * open.waiting.count + 64 else { return }
        open.order = Deque(open.order.filter { open.waiting[$0] != nil })
    }
}
