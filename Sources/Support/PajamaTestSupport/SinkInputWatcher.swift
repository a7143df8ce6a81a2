import Foundation
import PajamaModel

/// Asks a private server what played: `pactl subscribe` writes every sink-input event ("new", "change",
/// "remove" with the input's index) as it happens, so a test learns how many plays started and which
/// overlapped from the server itself, not from a recording's timing.
///
/// In sample-cache mode every play is a new sink input (removed when it ends); in stream mode there is
/// one long-lived input and plays are mixed in it.
public final class SinkInputWatcher: @unchecked Sendable {
    // Safe: the lets are set in init and only read afterwards; `stopped` is `Locked`.
    /// One sink-input event, in the server's order.
    public struct Event: Equatable, Sendable {
        public enum Kind: String, Sendable { case new, change, remove }
        public var kind: Kind
        public var index: Int
    }

    private let pid: pid_t
    private let file: String
    public let server: PrivatePulseServer
    private let stopped = Locked(false)

    /// Subscribes and returns once the subscription is live: a `pactl info` run as a probe shows up as
    /// client events in the output.
    public init(server: PrivatePulseServer, timeout: TimeInterval = 30) throws {
        self.server = server
        file = server.home + "/events-\(UUID().uuidString.prefix(6)).txt"
        pid = try ChildProcess.spawn("pactl", ["-s", server.serverAddress, "subscribe"], outputFile: file, errorFile: file,
                                     environment: server.clientEnvironment)
        let pid = self.pid, file = self.file
        var ended: String?
        let live = server.waitUntil(timeout: timeout) {
            ended = ChildProcess.exitDescription(pid)
            if ended != nil { return true }
            _ = server.pactl("info")
            return ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").contains("on client #")
        }
        if ended != nil || !live {
            ChildProcess.terminate(pid)
            let output = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
            throw ChildProcess.Failure(message: "pactl subscribe did not start: \(ended ?? "no events within \(Int(timeout)) s"); output:\n\(output)")
        }
    }

    /// Every sink-input event so far, in order.
    public func events() -> [Event] {
        let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            // Event 'new' on sink-input #12
            let parts = line.split(separator: " ")
            guard parts.count == 5, parts[0] == "Event", parts[3] == "sink-input",
                  let kind = Event.Kind(rawValue: parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "'"))),
                  let index = Int(parts[4].dropFirst())
            else { return nil }
            return Event(kind: kind, index: index)
        }
    }

    /// The indices of the sink inputs that appeared, in order.
    public func started() -> [Int] { events().filter { $0.kind == .new }.map(\.index) }

    /// The indices of the sink inputs that ended, in order.
    public func ended() -> [Int] { events().filter { $0.kind == .remove }.map(\.index) }

    /// Waits until `condition` holds for the events (polling), returning them; throws with the events
    /// seen when `timeout` passes.
    @discardableResult
    public func waitFor(_ what: String, timeout: TimeInterval = 30, _ condition: ([Event]) -> Bool) throws -> [Event] {
        var last: [Event] = []
        if server.waitUntil(timeout: timeout, { last = events(); return condition(last) }) { return last }
        throw ChildProcess.Failure(message: "timed out waiting for \(what); sink-input events: \(last)")
    }

    /// Stops watching.
    public func stop() {
        let first = stopped.withLock { stopped -> Bool in
            defer { stopped = true }
            return !stopped
        }
        if first { ChildProcess.terminate(pid) }
    }

    deinit { stop() }
}
