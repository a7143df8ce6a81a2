import Foundation

/// A plain TCP connection to a host on 127.0.0.1, for what no HTTP client sends: a head that trickles,
/// a malformed request, a request line of 20 KB; or a request that must not wait on Swift's cooperative
/// pool (the end-to-end tests' synchronous waits can hold it). Reads wait with a deadline (poll), never a fixed sleep.
public final class RawConnection {
    private let fd: Int32

    /// `receiveBuffer`: the socket's receive buffer in bytes, set before it connects (a small one makes a
    /// client that reads nothing stall the host's writes soon).
    public init(port: Int, receiveBuffer: Int? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if var size = receiveBuffer.map(Int32.init) {
            _ = setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            close(fd)
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "connect: \(String(cString: strerror(errno)))"])
        }
    }

    deinit { close(fd) }

    /// Sends `text` whole (false if the host closed the connection).
    @discardableResult
    public func send(_ text: String) -> Bool {
        send(bytes: Array(text.utf8))
    }

    /// Sends `bytes` whole (false if the host closed the connection): a WebSocket frame, a TLS record.
    @discardableResult
    public func send(bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { Foundation.send(fd, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return false }
            sent += n
        }
        return true
    }

    /// What the host sent until it closed the connection or `timeout` passed; `closed` says which.
    public func readUntilClosed(timeout: Duration = .seconds(30)) -> (text: String, closed: Bool) {
        let (bytes, closed) = receiveUntilClosed(timeout: timeout)
        return (String(decoding: bytes, as: UTF8.self), closed)
    }

    /// The bytes the host sent until it closed the connection or `timeout` passed; `closed` says which.
    public func receiveUntilClosed(timeout: Duration = .seconds(30)) -> (bytes: [UInt8], closed: Bool) {
        let deadline = ContinuousClock.now + timeout
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return (received, false) }
            var waiting = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ms = Int32(max(1, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
            guard poll(&waiting, 1, ms) > 0 else { continue }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return (received, true) }
            received.append(contentsOf: buffer[..<n])
        }
    }

    /// How many bytes the host sent until it closed the connection or `timeout` passed; `closed` says which.
    public func countUntilClosed(timeout: Duration = .seconds(30)) -> (bytes: Int, closed: Bool) {
        let deadline = ContinuousClock.now + timeout
        var count = 0
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return (count, false) }
            var waiting = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ms = Int32(max(1, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
            guard poll(&waiting, 1, ms) > 0 else { continue }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return (count, true) }
            count += n
        }
    }

    /// What the host sent until `marker` arrived (included), it closed the connection, or `timeout` passed.
    public func read(until marker: String, timeout: Duration = .seconds(30)) -> String {
        let deadline = ContinuousClock.now + timeout
        var received: [UInt8] = []
        var byte: UInt8 = 0
        let end = Array(marker.utf8)
        while !received.ends(with: end) {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { break }
            var waiting = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ms = Int32(max(1, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
            guard poll(&waiting, 1, ms) > 0 else { continue }
            guard recv(fd, &byte, 1, 0) == 1 else { break }
            received.append(byte)
        }
        return String(decoding: received, as: UTF8.self)
    }
}

private extension Array where Element == UInt8 {
    func ends(with suffix: [UInt8]) -> Bool { count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix }
}
