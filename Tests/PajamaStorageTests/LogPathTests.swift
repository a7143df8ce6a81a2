import Foundation
import PajamaStorage
import Testing

/// Where the log goes: `$XDG_STATE_HOME/pajama/pajama.log`, or `~/.local/state/pajama/pajama.log` when the
/// variable is unset or empty (the XDG rule the other folders follow).
@Suite struct LogPathTests {
    @Test func theStateFolderFollowsXDGStateHome() {
        let paths = Paths(environment: ["HOME": "/home/r", "XDG_STATE_HOME": "/var/s"])
        #expect(paths.state.path == "/var/s/pajama")
        #expect(paths.logFile.path == "/var/s/pajama/pajama.log")
    }

    @Test func anUnsetOrEmptyStateHomeMeansTheDefaultUnderHome() {
        for environment in [["HOME": "/home/r"], ["HOME": "/home/r", "XDG_STATE_HOME": ""]] {
            #expect(Paths(environment: environment).logFile.path == "/home/r/.local/state/pajama/pajama.log")
        }
    }

    @Test func aChildProcessHomeHasItsOwnStateFolder() {
        let environment = Paths.environment(home: "/tmp/h")
        #expect(environment["XDG_STATE_HOME"] == "/tmp/h/state")
        #expect(Paths(environment: environment).logFile.path == "/tmp/h/state/pajama/pajama.log")
    }
}
