#if canImport(Glibc)
import Glibc
#endif

/// A TCP port on 127.0.0.1 where a connection is refused, for as long as this value is kept: a socket bound
/// to it and never listening (so no other test's server can take the port meanwhile, as it could once a
/// stopped server had let it go). `close()` frees it.
public final class ClosedPort: Sendable {
    public let port: Int
    private let descriptor: Int32

    public init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ClosedPortError(call: "socket", code: errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            let code = errno
            Glibc.close(fd)
            throw ClosedPortError(call: "bind", code: code)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else {
            let code = errno
            Glibc.close(fd)
            throw ClosedPortError(call: "getsockname", code: code)
        }
        descriptor = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// Listens without ever accepting: a connection is made (the kernel's backlog) and never answered, as a
    /// host that is stuck or busy.
    public func listenSilently() throws {
        guard Glibc.listen(descriptor, 16) == 0 else { throw ClosedPortError(call: "listen", code: errno) }
    }

    public func close() { Glibc.close(descriptor) }
}

public struct ClosedPortError: Error, CustomStringConvertible {
    public let call: String
    public let code: Int32
    public var description: String { "\(call) failed: \(String(cString: strerror(code)))" }
}
