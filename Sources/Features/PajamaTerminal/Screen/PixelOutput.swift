import FoundationEssentials
import Glibc
import PajamaBasics

/// Writes picture bytes to the terminal (standard output, where ncurses writes), after ncurses has
/// flushed its own: all of them, through short writes and interrupted ones.
enum PixelOutput {
    static func write(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(STDOUT_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0, errno == EINTR || errno == EAGAIN {
                    var request = pollfd(fd: STDOUT_FILENO, events: Int16(POLLOUT), revents: 0)
                    if errno == EAGAIN, poll(&request, 1, 1000) <= 0 { return }  // not draining: give the picture up
                } else {
                    return  // the terminal is gone
                }
            }
        }
    }
}
