import Glibc

/// Whether something accepts a TCP connection at `host`:`port` now (a wildcard address is asked on its
/// loopback): how a relay node knows its nginx listens, and tests and the bench that their servers do.
public func acceptsConnections(host: String, port: Int) -> Bool {
    var hints = addrinfo()
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    var found: UnsafeMutablePointer<addrinfo>?
    let target = host == "0.0.0.0" ? "127.0.0.1" : host == "::" ? "::1" : host
    guard getaddrinfo(target, String(port), &hints, &found) == 0, let info = found else { return false }
    defer { freeaddrinfo(found) }
    let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), info.pointee.ai_protocol)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    return connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0
}
