import Dispatch
import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaModel

/// The lines of a file descriptor (standard input: a terminal in its normal line mode, a pipe, a file,
/// /dev/null), one at a time (`nextLine`), for several readers in turn (the plain library, then a story,
/// then the library again). A thread of its own waits in poll(2) for the descriptor or for `close()` (a
/// pipe of its own), so `close()` ends it at once whatever the descriptor is (a DispatchSource never fires
/// for /dev/null, which epoll refuses). The descriptor's modes are never changed: the terminal keeps its
/// echo and line editing, and plain mode needs no screen control.
public final class PlainInput: Sendable {
    private enum State {
        /// Reading: the lines read and not yet taken, the reader waiting for one (if any).
        case reading(lines: [String], waiter: CheckedContinuation<String?, Never>?)
        /// The input ended (or `close()`): the lines not yet taken are still given.
        case ended(lines: [String])
    }

    private let state: Locked<State>
    /// Written to by `close()`: wakes the reading thread, which then ends.
    private let wake: (read: Int32, write: Int32)

    public init(descriptor: Int32 = STDIN_FILENO) {
        let state = Locked(State.reading(lines: [], waiter: nil))
        self.state = state
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) != 0 { ends = [-1, -1] }
        wake = (ends[0], ends[1])
        let stop = ends[0]
        let started = startDetachedThread(named: "pajama plain in") {
            var pending = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                var fds = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0), pollfd(fd: stop, events: Int16(POLLIN), revents: 0)]
                let ready = poll(&fds, stop < 0 ? 1 : 2, -1)
                if ready < 0, errno == EINTR { continue }
                if ready < 0 || fds[1].revents != 0 { break }
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR || errno == EAGAIN { continue }
                guard count > 0 else { break }  // the end of the input, or an error reading it
                pending += buffer[..<count]
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    var line = pending[..<newline]
                    if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
                    Self.add(String(decoding: line, as: UTF8.self), to: state)
                    pending.removeSubrange(...newline)
                }
            }
            // The last line without a line break, then the end.
            if !pending.isEmpty { Self.add(String(decoding: pending, as: UTF8.self), to: state) }
            Self.end(state)
            if stop >= 0 { Glibc.close(stop) }
        }
        if !started { Self.end(state) }  // no thread to read with: the input ends at once
    }

    /// The next line (without its line break); nil at the end of the input, or when the waiting task is
    /// cancelled (the input goes on for the next reader).
    public func nextLine() async -> String? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (reply: CheckedContinuation<String?, Never>) in
                let answer: String?? = state.withLock {
                    switch $0 {
                    case .reading(var lines, let waiter):
                        if Task.isCancelled { return .some(nil) }
                        if !lines.isEmpty {
                            let line = lines.removeFirst()
                            $0 = .reading(lines: lines, waiter: waiter)
                            return .some(line)
                        }
                        waiter?.resume(returning: nil)  // one reader at a time: an earlier one gives up
                        $0 = .reading(lines: lines, waiter: reply)
                        return .none
                    case .ended(var lines):
                        if lines.isEmpty { return .some(nil) }
                        let line = lines.removeFirst()
                        $0 = .ended(lines: lines)
                        return .some(line)
                    }
                }
                if let answer { reply.resume(returning: answer) }
            }
        } onCancel: {
            let waiter: CheckedContinuation<String?, Never>? = state.withLock {
                guard case .reading(let lines, let waiter) = $0 else { return nil }
                $0 = .reading(lines: lines, waiter: nil)
                return waiter
            }
            waiter?.resume(returning: nil)
        }
    }

    /// Stops reading (the thread ends): `nextLine` gives what was read, then nil.
    public func close() {
        Self.end(state)
        var byte: UInt8 = 1
        if wake.write >= 0 { _ = write(wake.write, &byte, 1) }
    }

    deinit {
        close()
        if wake.write >= 0 { Glibc.close(wake.write) }
    }

    private static func add(_ line: String, to state: Locked<State>) {
        let waiter: CheckedContinuation<String?, Never>? = state.withLock {
            switch $0 {
            case .reading(var lines, let waiter):
                if waiter == nil { lines.append(line) }
                $0 = .reading(lines: lines, waiter: nil)
                return waiter
            case .ended:
                return nil
            }
        }
        waiter?.resume(returning: line)
    }

    private static func end(_ state: Locked<State>) {
        let waiter: CheckedContinuation<String?, Never>? = state.withLock {
            guard case .reading(let lines, let waiter) = $0 else { return nil }
            $0 = .ended(lines: lines)
            return waiter
        }
        waiter?.resume(returning: nil)
    }
}
