import Foundation
import PajamaTerminal
import PajamaTestSupport
import Testing

/// The quit signals as one sequence: a signal sent to this process once `start()` has returned is kept
/// (the first one only) and wakes whoever listens, instead of ending the process.
@MainActor @Suite(.serialized) struct QuitSignalsTests {
    @Test func theFirstQuitSignalIsKeptAndWakesTheListener() async {
        let signals = QuitSignals()
        var wakes = 0
        signals.onSignal = { wakes += 1 }
        await signals.start()
        #expect(signals.received == nil)
        kill(getpid(), SIGHUP)
        #expect(await eventually { wakes == 1 })
        #expect(signals.received == SIGHUP)
        kill(getpid(), SIGTERM)
        #expect(await eventually { wakes == 2 })
        #expect(signals.received == SIGHUP, "later signals change nothing")
        signals.stop()
    }

    @Test func aScreenEndsOnTheSignalItsQuitSignalsReceived() async {
        let signals = QuitSignals()
        let screen = Screen(theme: .builtIn, capabilities: TerminalCapabilities.current(), signals: signals)
        await signals.start()
        #expect(screen.quitSignal == nil)
        kill(getpid(), SIGINT)
        #expect(await eventually { screen.quitSignal == SIGINT })
        signals.stop()
    }
}
