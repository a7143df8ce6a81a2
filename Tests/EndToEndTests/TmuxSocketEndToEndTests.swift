import Foundation
import PajamaTestSupport
import Testing

/// The end-to-end tests' tmux servers leave no sockets behind (tmux's kill-server does): each session's
/// socket is there while it runs and gone once it is stopped, or once its server alone is ended.
@Suite struct TmuxSocketEndToEndTests {
    func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    @Test func stoppingASessionRemovesItsSocket() throws {
        let t = try TmuxSession(["sleep", "60"])
        defer { t.stop() }
        #expect(exists(t.socketPath), "\(t.socketPath)")
        t.stop()
        #expect(!exists(t.socketPath), "\(t.socketPath)")
        #expect(!exists(t.home.path))
    }

    @Test func endingTheServerAloneRemovesItsSocketAndKeepsTheHome() throws {
        let t = try TmuxSession(["sleep", "60"])
        defer { t.stop() }
        #expect(exists(t.socketPath), "\(t.socketPath)")
        t.killServer()
        #expect(!exists(t.socketPath), "\(t.socketPath)")
        #expect(exists(t.home.path))
    }
}
