import CEpoll
import Foundation
import Glibc

/// `pajama-bench --crowd URL --crowd-size N --crowd-frames` (hidden): N followers of a relay node, each a bare
/// WebSocket on one epoll thread that notes when each of the node's frames reaches it, and nothing more.
///
/// The relay crowd's figure is the relay's: move to frame at the follower's socket. With `pajama join`'s
/// own client per follower (`CrowdChild`), 10,000 of them on the bench's 2 cores spent ~50 us of CPU each
/// per move decoding the welcome into a reader's state, half a second of CPU a move, which on other machines
/// each follower spends on its own. Here a frame costs a read and a search for its `"lineIndex":`.
///
/// Followers connect at most `connecting` at a time (a crowd joining, not a SYN flood), open `/session`
/// with the token as `pajama join` at a relay does after its first look (no hello), answer pings, and print
/// what `CrowdChild` prints ("started", "settled ...", "move N T1 T2 ..."), so the bench reads both alike.
enum FrameCrowd {
    /// Connections opened but not yet upgraded, at most.
    static let connecting = 256
    /// How long a move's line waits for its last followers.
    static let moveWait = 15.0

    private enum Phase {
        case connecting
        case upgrading
        case open
        case closed
    }

    private struct Follower {
        var fd: Int32
        var phase = Phase.connecting
        var buffer: [UInt8] = []
        var latest = -1
        var welcomed = false
    }

    static func run(url: URL, followers: Int) -> Never {
        let token = ProcessInfo.processInfo.environment["PAJAMA_TOKEN"] ?? ""
        let host = url.host ?? "127.0.0.1"
        let port = url.port ?? 80
        let request = Array("GET /session?token=\(token) HTTP/1.1\r\nHost: \(host):\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: cGFqYW1hLWJlbmNoLWNyb3dk\r\nSec-WebSocket-Version: 13\r\n\r\n".utf8)
        let epoll = pajama_epoll_create()
        var crowd: [Int32: Follower] = [:]
        var started = 0, pending = 0
        var welcomed = 0, failed = 0, lastWelcome = 0.0
        var moves: [Int: [Double]] = [:]
        var printed = Set<Int>()
        var said = ""
        CrowdChild.say("started \(now())")

        func fail(_ fd: Int32, _ reason: String) {
            guard var follower = crowd[fd], follower.phase != .closed else { return }
            if follower.phase != .open { pending -= 1 }
            if !follower.welcomed {
                failed += 1
                FileHandle.standardError.write(Data("coreading-crowd: a follower failed: \(reason)\n".utf8))
            }
            follower.phase = .closed
            crowd[fd] = follower
            close(fd)
        }

        func open() {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            started += 1
            guard fd >= 0 else {
                failed += 1
                FileHandle.standardError.write(Data("coreading-crowd: a follower failed: socket: \(String(cString: strerror(errno)))\n".utf8))
                return
            }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr(host)
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            crowd[fd] = Follower(fd: fd)
            pending += 1
            pajama_epoll_watch(epoll, fd, UInt32(EPOLLOUT.rawValue), 0)
        }

        /// A text frame's `"lineIndex":N`, the move's number.
        func moveNumber(_ payload: ArraySlice<UInt8>) -> Int? {
            let key = Array(#""lineIndex":"#.utf8)
            guard payload.count > key.count else { return nil }
            var index = payload.startIndex
            while index + key.count <= payload.endIndex {
                if payload[index] == key[0], payload[index..<(index + key.count)].elementsEqual(key) {
                    var number = 0, digits = payload.index(index, offsetBy: key.count)
                    while digits < payload.endIndex, (48...57).contains(payload[digits]) {
                        number = number * 10 + Int(payload[digits] - 48)
                        digits += 1
                    }
                    return number
                }
                index += 1
            }
            return nil
        }

        /// Reads the frames in `follower`'s buffer; false if the node closed the socket.
        func frames(_ follower: inout Follower, at moment: Double) -> Bool {
            var start = 0
            defer { follower.buffer.removeFirst(start) }
            let bytes = follower.buffer
            while bytes.count - start >= 2 {
                let opcode = bytes[start] & 0x0F
                var length = Int(bytes[start + 1] & 0x7F)
                var offset = start + 2
                if length == 126 {
                    guard bytes.count - start >= 4 else { break }
                    length = Int(bytes[start + 2]) << 8 | Int(bytes[start + 3])
                    offset = start + 4
                } else if length == 127 {
                    guard bytes.count - start >= 10 else { break }
                    length = (2..<10).reduce(0) { $0 << 8 | Int(bytes[start + $1]) }
                    offset = start + 10
                }
                if bytes[start + 1] & 0x80 != 0 { offset += 4 }
                guard bytes.count >= offset + length else { break }
                let payload = bytes[offset..<(offset + length)]
                switch opcode {
                case 1:
                    if !follower.welcomed {
                        follower.welcomed = true
                        welcomed += 1
                        lastWelcome = moment
                    }
                    if let number = moveNumber(payload), number > follower.latest {
                        follower.latest = number
                        moves[number, default: []].append(moment)
                    }
                case 8:
                    return false
                case 9:
                    // A pong, masked (with a zero key, so the payload goes as it came).
                    let pong = [0x8A, 0x80 | UInt8(min(payload.count, 125)), 0, 0, 0, 0] + payload.prefix(125)
                    _ = pong.withUnsafeBytes { send(follower.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                default:
                    break
                }
                start = offset + length
            }
            return true
        }

        var readyFds = [Int32](repeating: 0, count: 512)
        var readyEvents = [UInt32](repeating: 0, count: 512)
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            while pending < connecting, started < followers { open() }
            let count = pajama_epoll_wait_fds(epoll, &readyFds, &readyEvents, 512, 20)
            let moment = now()
            for index in 0..<max(0, Int(count)) {
                let fd = readyFds[index]
                // Taken out while it changes (its buffer is not copied on each write), and put back on every way out.
                guard var follower = crowd.removeValue(forKey: fd), follower.phase != .closed else { continue }
                if follower.phase == .connecting {
                    var error: Int32 = 0
                    var size = socklen_t(MemoryLayout<Int32>.size)
                    getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &size)
                    crowd[fd] = follower
                    if error != 0 {
                        fail(fd, "connect: \(String(cString: strerror(error)))")
                        continue
                    }
                    guard readyEvents[index] & UInt32(EPOLLOUT.rawValue) != 0 else { continue }
                    _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    follower.phase = .upgrading
                    crowd[fd] = follower
                    pajama_epoll_watch(epoll, fd, UInt32(EPOLLIN.rawValue), 1)
                    continue
                }
                var closedByNode = false
                while true {
                    let n = recv(fd, &chunk, chunk.count, Int32(MSG_DONTWAIT))
                    if n > 0 {
                        follower.buffer.append(contentsOf: chunk[0..<n])
                        continue
                    }
                    if n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) { closedByNode = true }
                    if n < 0, errno == EINTR { continue }
                    break
                }
                if follower.phase == .upgrading {
                    let end = Array("\r\n\r\n".utf8)
                    guard let head = follower.buffer.indices.dropLast(3).first(where: { follower.buffer[$0..<($0 + 4)].elementsEqual(end) }) else {
                        crowd[fd] = follower
                        if closedByNode { fail(fd, "the node closed the connection before answering") }
                        continue
                    }
                    let status = String(decoding: follower.buffer[0..<min(head, 64)], as: UTF8.self).split(separator: "\r\n").first.map(String.init) ?? ""
                    guard status.hasPrefix("HTTP/1.1 101") else {
                        crowd[fd] = follower
                        fail(fd, "the node answered \(status)")
                        continue
                    }
                    follower.buffer.removeFirst(head + 4)
                    follower.phase = .open
                    pending -= 1
                }
                let open = frames(&follower, at: moment)
                crowd[fd] = follower
                if !open || closedByNode { fail(fd, "the node closed the socket") }
            }
            let line = "settled \(welcomed) 0 \(failed) \(lastWelcome)"
            if line != said {
                CrowdChild.say(line)
                said = line
            }
            for (number, times) in moves.sorted(by: { $0.key < $1.key }) where !printed.contains(number)
                && (times.count >= welcomed || moment - (times.min() ?? moment) > moveWait) {
                CrowdChild.say("move \(number) " + times.map { String(format: "%.6f", $0) }.joined(separator: " "))
                printed.insert(number)
            }
        }
    }
}
